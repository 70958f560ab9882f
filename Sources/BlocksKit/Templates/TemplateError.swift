/// What can go wrong when a template is filled: a year that cannot be stamped, or a file
/// whose own license line contradicts the MIT header it would get.
public enum TemplateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `SOURCE_DATE_EPOCH` is not a whole number of seconds in the years the tool stamps.
    case invalidSourceDateEpoch(String)
    /// A Swift file declares another license in its SPDX line. Keeping the line would ship
    /// a file whose header says one license and whose LICENSE says another; replacing it
    /// would silently drop the author's statement. So the file is refused.
    case foreignLicense(path: String, identifier: String)

    public var description: String {
        switch self {
        case .invalidSourceDateEpoch(let value):
            return "SOURCE_DATE_EPOCH='\(value)' is not a time the tool can stamp: it must be a whole number of seconds "
                + "since 1970 (0 to \(TemplateText.latestSourceDateEpoch), the years 1970 to 9999); fix or unset it"
        case .foreignLicense(let path, let identifier):
            return "\(path) declares 'SPDX-License-Identifier: \(identifier)', but blocks ship under MIT; "
                + "nothing was written. Ask the block's publisher to relicense the file or remove the line ('blocks lint' reports it)"
        }
    }
}
