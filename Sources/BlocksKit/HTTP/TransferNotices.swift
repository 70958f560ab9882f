#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CommandContext {
    /// The transport, telling a person at the terminal what a transfer is waiting for
    /// (`CurlTransport.announcing`) on standard error. Scripts, pipes and `--quiet` get
    /// the plain transport: the same waits, and the error at the end says what happened.
    var announcingTransport: HTTPTransport {
        guard !quiet, standardError.isTerminal, let curl = transport as? CurlTransport else { return transport }
        let sink = standardError
        return curl.announcing { line in sink.write("note: \(line)\n") }
    }
}
