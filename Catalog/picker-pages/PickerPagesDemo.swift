#if os(iOS)
import SwiftUI

/// A calendar-style demo of ``PickerPages``: day, week and month pages under the tabs.
@available(iOS 27.0, *)
struct PickerPagesDemo: View {
    enum Period: String, CaseIterable, Identifiable {
        case day, week, month

        var id: Self { self }

        var title: LocalizedStringKey {
            switch self {
            case .day: "Day"
            case .week: "Week"
            case .month: "Month"
            }
        }

        var systemImage: String {
            switch self {
            case .day: "sun.max"
            case .week: "calendar.day.timeline.left"
            case .month: "calendar"
            }
        }
    }

    @State private var period = Period.week

    var body: some View {
        NavigationStack {
            PickerPages(options: Period.allCases, selection: $period, title: "Period") { period in
                Text(period.title)
            } page: { period in
                List {
                    Section {
                        ForEach(1...8, id: \.self) { hour in
                            LabeledContent("Event \(hour)", value: "\(hour + 8):00")
                        }
                    } header: {
                        Label(period.title, systemImage: period.systemImage)
                    }
                }
            }
            .navigationTitle("Agenda")
        }
    }
}

@available(iOS 27.0, *)
#Preview("Picker pages") {
    PickerPagesDemo()
}

@available(iOS 27.0, *)
#Preview("Picker pages, right to left") {
    PickerPagesDemo()
        .environment(\.layoutDirection, .rightToLeft)
        .environment(\.locale, Locale(identifier: "ar"))
}
#endif
