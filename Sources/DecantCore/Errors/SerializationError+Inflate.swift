package import DecantCompression

extension SerializationError {
    /// The error of `Inflate` (DecantCompression) as a serialization error: the same code, message and offset.
    package init(_ error: InflateError) {
        let code: Code
        switch error.code {
        case .invalidBody: code = .invalidBody
        case .truncatedBody: code = .truncatedBody
        case .limitExceeded: code = .limitExceeded
        case .unsupportedFeature: code = .unsupportedFeature
        }
        self.init(code: code, message: error.message, offset: error.offset)
    }
}
