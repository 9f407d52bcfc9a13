public import DecantCore

extension SerializationError.Code {
    /// The body is well-formed JSON or XML but not a problem details document: a JSON value that is not an object,
    /// or an XML document whose root is not `problem` in the namespace `urn:ietf:rfc:7807` (RFC 9457 §3, Appendix B).
    public static let notAProblemDocument = Self("problemDetails.notAProblemDocument")
}
