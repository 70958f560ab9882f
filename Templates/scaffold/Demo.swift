import SwiftUI

/// A demo of {{Type}} for previews and for trying the block out.
@available(iOS 18.0, *)
struct {{Type}}Demo: View {
    @State private var selection = "One"

    var body: some View {
        {{Type}}(items: ["One", "Two", "Three"], selection: $selection)
    }
}

@available(iOS 18.0, *)
#Preview {
    {{Type}}Demo()
}
