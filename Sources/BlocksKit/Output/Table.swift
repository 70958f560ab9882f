/// Lays out rows in aligned columns. The last column is never padded, so lines
/// carry no trailing spaces when piped.
///
/// Cells are registry data (names, titles, descriptions), so their control characters
/// are escaped here, once for every table, before widths are measured.
public enum Table {
    static let gap = "  "

    /// `styles` colors whole cells after padding, so escape codes never skew the widths.
    ///
    /// With a `width` the table fits in it when it can: a table too wide for it gets
    /// narrower columns whose cells wrap between words (`TextWrap`), continuation lines
    /// aligned under their column, and a first cell too long for its column gets a line
    /// of its own, the rest of its row starting under the other columns on the next.
    ///
    /// With `stackingWhenNarrow` (lists of blocks, whose first cell is the name a user types
    /// next), a table that cannot fit without moving that name off its row or cutting a word
    /// becomes one group of lines per row instead: the first cell alone on its line, the
    /// others after it, indented (`stacked`).
    public static func render(
        _ rows: [[String]], style: Style = Style(enabled: false), columnColors: [Style.Color?] = [], width: Int? = nil,
        stackingWhenNarrow: Bool = false
    ) -> [String] {
        guard let columns = rows.map(\.count).max(), columns > 0 else { return [] }
        let rows = rows.map { $0.map(TerminalText.escaped) }
        // Widths in characters, each cell counted once: a 10,000-row table is laid out in
        // a few milliseconds.
        let counts = rows.map { $0.map(\.count) }
        var natural = [Int](repeating: 0, count: columns)
        for row in counts {
            for (column, count) in row.enumerated() { natural[column] = max(natural[column], count) }
        }
        func colored(_ text: String, _ column: Int) -> String {
            guard column < columnColors.count, let color = columnColors[column] else { return text }
            return style.apply(color, text)
        }
        /// One line of cells, each padded to its column but the last one shown.
        func line(_ cells: [String], widths: [Int]) -> String {
            let shown = (cells.lastIndex { !$0.isEmpty } ?? 0) + 1
            var text = ""
            for column in 0..<shown {
                if column > 0 { text += gap }
                var cell = cells[column]
                if column < shown - 1 { cell += String(repeating: " ", count: max(0, widths[column] - cell.count)) }
                text += colored(cell, column)
            }
            return text
        }

        let gaps = gap.count * (columns - 1)
        guard let width, natural.reduce(gaps, +) > width, columns > 1 else {
            return rows.map { line($0, widths: natural) }
        }
        let widths = fittedWidths(rows, natural: natural, available: width - gaps)
        if stackingWhenNarrow, !fitsWhole(rows, natural: natural, widths: widths) {
            return stacked(rows, width: width, colored: colored)
        }
        var lines: [String] = []
        for row in rows {
            let last = row.count - 1
            var pieces = row.enumerated().map { column, cell in
                column == 0 ? [cell] : TextWrap.lines(cell, width: widths[column], cuttingLongWords: column < last)
            }
            if row[0].count > widths[0] && row.count > 1 {
                lines.append(colored(row[0], 0))
                pieces[0] = [""]
            }
            let height = pieces.map(\.count).max() ?? 1
            for index in 0..<height {
                lines.append(line(pieces.map { index < $0.count ? $0[index] : "" }, widths: widths))
            }
        }
        return lines
    }

    /// Whether columns of `widths` hold every first cell whole on its row and every word
    /// of the other columns uncut, the last column (prose) keeping a readable width.
    static func fitsWhole(_ rows: [[String]], natural: [Int], widths: [Int]) -> Bool {
        guard widths.count == natural.count, widths[0] >= natural[0] else { return false }
        let last = natural.count - 1
        for row in rows {
            for (column, cell) in row.enumerated() where column > 0 {
                let longestWord = cell.split(separator: " ").map(\.count).max() ?? 0
                if longestWord > widths[column] { return false }
                // A middle column that wraps at all (`iOS` over `18.0+`) reads as two rows.
                if column < last, cell.count > widths[column] { return false }
            }
        }
        return widths[last] >= min(natural[last], minimumWrapWidth)
    }

    /// Indent of the lines after a stacked row's first cell.
    static let stackIndent = "  "

    /// One group of lines per row: the first cell on a line of its own, never cut (a
    /// longer one runs over), then the other cells indented, as many to a line as fit,
    /// separated like columns. A cell that does not fit the rest of a line starts the
    /// next; one longer than a whole line wraps between words.
    static func stacked(_ rows: [[String]], width: Int, colored: (String, Int) -> String) -> [String] {
        let room = max(1, width - stackIndent.count)
        var lines: [String] = []
        for row in rows {
            guard let first = row.first else { continue }
            lines.append(colored(first, 0))
            var current = ""
            var count = 0
            func flush() {
                if count > 0 { lines.append(stackIndent + current) }
                current = ""
                count = 0
            }
            for (column, cell) in row.enumerated() where column > 0 && !cell.isEmpty {
                if count > 0, count + gap.count + cell.count > room { flush() }
                if cell.count <= room - count - (count > 0 ? gap.count : 0) {
                    if count > 0 {
                        current += gap
                        count += gap.count
                    }
                    current += colored(cell, column)
                    count += cell.count
                    continue
                }
                flush()
                let pieces = TextWrap.lines(cell, width: room)
                for piece in pieces.dropLast() { lines.append(stackIndent + colored(piece, column)) }
                if let piece = pieces.last {
                    current = colored(piece, column)
                    count = piece.count
                }
            }
            flush()
        }
        return lines
    }

    /// A wrapped column is never narrower than this, even when the columns before it
    /// leave less room: short lines of words read better than one word a line.
    static let minimumWrapWidth = 20

    /// Column widths that add up to `available` where they can.
    ///
    /// When the other columns fit as they are and leave the last one (usually prose)
    /// room for its longest word, only the last column wraps. Otherwise every column
    /// grows to one common level, none past its natural width or below its floor: the
    /// longest word of a column (so words are rarely cut), 10 for the first column (a
    /// longer cell takes its own line), and for the last, 40% of the room. When even the
    /// floors do not fit, the middle columns share what is left and cut their long words.
    static func fittedWidths(_ rows: [[String]], natural: [Int], available: Int) -> [Int] {
        let last = natural.count - 1
        var floors = [Int](repeating: 0, count: natural.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column > 0 {
                let longestWord = cell.split(separator: " ").map(\.count).max() ?? 0
                floors[column] = max(floors[column], longestWord)
            }
        }
        let others = natural.dropLast().reduce(0, +)
        if available - others >= min(natural[last], max(floors[last], 10)) {
            return Array(natural.dropLast()) + [available - others]
        }
        floors[0] = 10
        floors[last] = max(floors[last], minimumWrapWidth, available * 2 / 5)
        floors = zip(floors, natural).map { min($0, $1) }
        if floors.reduce(0, +) > available {
            floors[last] = min(natural[last], minimumWrapWidth)
            let middle = Array(floors[1..<last])
            let room = max(available - floors[0] - floors[last], 6 * middle.count)
            floors.replaceSubrange(1..<last, with: level(sharing: room, floors: middle.map { _ in 6 }, most: middle))
        }
        return level(sharing: available, floors: floors, most: natural)
    }

    /// Widths that rise together from `floors` toward `most` until they fill `room`, what
    /// is left over going to the last one.
    static func level(sharing room: Int, floors: [Int], most: [Int]) -> [Int] {
        func widths(at level: Int) -> [Int] { zip(floors, most).map { floor, most in min(most, max(floor, level)) } }
        var level = 0
        while level < (most.max() ?? 0), widths(at: level + 1).reduce(0, +) <= room { level += 1 }
        var fitted = widths(at: level)
        if let last = fitted.indices.last {
            fitted[last] = min(most[last], fitted[last] + max(0, room - fitted.reduce(0, +)))
        }
        return fitted
    }
}
