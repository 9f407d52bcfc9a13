/// When a response counts as having no body, and what a chain returns for it.
///
/// RFC 9110 says 204, 205 and 304 responses and responses to `HEAD` have no content. Real servers also send
/// `Content-Length: 0` with a 200, or a lone space (Rails' `head :ok`). Alamofire treats a 200 with an empty body as
/// an error (Alamofire #3088); Decant's default returns the serializer's empty value instead, and
/// ``Outcome/emptyValueOnlyForNoContent`` restores the stricter behaviour.
public struct EmptyBodyPolicy: Sendable, Hashable {
    /// What a chain does with an empty response.
    public enum Outcome: Sendable, Hashable {
        /// Return the serializer's ``ResponseSerializer/emptyValue(for:)``.
        case emptyValue
        /// Return the empty value only for 204/205/304 and `HEAD`; any other empty body is an error.
        case emptyValueOnlyForNoContent
        /// Throw ``SerializationError/Code/emptyBody``.
        case error
    }

    /// Why a response counts as empty.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// A status that has no content (204, 205, 304 by default).
        case noContentStatus(Int)
        /// A response to a `HEAD` request.
        case headRequest
        /// `Content-Length: 0`.
        case zeroContentLength
        /// No body bytes at all.
        case noBytes
        /// Only spaces, tabs and line breaks.
        case whitespaceOnly

        /// A phrase for error messages.
        public var description: String {
            switch self {
            case .noContentStatus(let status): "status \(status) has no content"
            case .headRequest: "the request method was HEAD"
            case .zeroContentLength: "Content-Length is 0"
            case .noBytes: "the body has no bytes"
            case .whitespaceOnly: "the body is only whitespace"
            }
        }

        /// Whether the protocol itself says there is no content (status or HEAD), not just an empty payload.
        public var isNoContentByProtocol: Bool {
            switch self {
            case .noContentStatus, .headRequest: true
            case .zeroContentLength, .noBytes, .whitespaceOnly: false
            }
        }
    }

    /// Statuses whose responses have no content.
    public var noContentStatuses: Set<Int> {
        didSet { noContentBounds = Self.bounds(of: noContentStatuses) }
    }
    /// The lowest and highest of ``noContentStatuses``, so that most statuses are ruled out without hashing.
    private var noContentBounds: ClosedRange<Int>?
    /// Whether a body of only whitespace may count as empty: it does when this is `true` *and* the serializer's
    /// format allows it (``ResponseSerializer/countsWhitespaceAsEmpty(for:)``: JSON, XML and property lists do;
    /// binary formats, plain text, CSV and forms do not, since whitespace is their content).
    public var treatsWhitespaceAsEmpty: Bool
    /// What to do with an empty response.
    public var outcome: Outcome

    /// Creates a policy.
    public init(
        noContentStatuses: Set<Int> = [204, 205, 304],
        treatsWhitespaceAsEmpty: Bool = true,
        outcome: Outcome = .emptyValue
    ) {
        self.noContentStatuses = noContentStatuses
        self.noContentBounds = Self.bounds(of: noContentStatuses)
        self.treatsWhitespaceAsEmpty = treatsWhitespaceAsEmpty
        self.outcome = outcome
    }

    /// 204/205/304, HEAD, `Content-Length: 0`, no bytes, and whitespace where the format allows it count as empty;
    /// the empty value is returned.
    public static let `default` = EmptyBodyPolicy()

    /// Why `response` is empty under this policy, or `nil` when it has a body.
    ///
    /// Only the leading bytes are inspected for whitespace, so a large body costs nothing.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - whitespaceIsEmpty: Whether the format that would decode the body counts whitespace as empty (usually
    ///     ``ResponseSerializer/countsWhitespaceAsEmpty(for:)``); asked only for a body that starts with whitespace.
    public func emptinessReason(
        for response: Response, whitespaceIsEmpty: @autoclosure () -> Bool
    ) -> Reason? {
        if let noContentBounds, noContentBounds.contains(response.status), noContentStatuses.contains(response.status) {
            return .noContentStatus(response.status)
        }
        if response.isHeadRequest { return .headRequest }
        // The body is asked once, for its first byte: each question to `Data` costs dynamic exclusivity checks, which
        // are most of this function's time on a registry's per-call path.
        guard let first = response.body.first else {
            return response.headers.contentLength == .bytes(0) ? .zeroContentLength : .noBytes
        }
        // Most bodies start with a byte that is not whitespace: only those that do are read through.
        if treatsWhitespaceAsEmpty, HTTPBytes.isHTTPWhitespace(first), whitespaceIsEmpty(),
            response.body.allSatisfy(HTTPBytes.isHTTPWhitespace)
        {
            return .whitespaceOnly
        }
        return nil
    }

    private static func bounds(of statuses: Set<Int>) -> ClosedRange<Int>? {
        guard let low = statuses.min(), let high = statuses.max() else { return nil }
        return low...high
    }
}
