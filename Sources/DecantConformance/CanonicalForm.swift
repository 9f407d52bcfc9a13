public import DecantJSON

/// Turns any serializer output into its canonical form, or explains why it has none.
public enum CanonicalForm {
    /// The canonical form of `value`.
    ///
    /// - Throws: ``ConformanceFailure`` when the value's type is not `ConformanceRepresentable` (DecantJSON).
    public static func of(_ value: any Sendable) throws -> JSONValue {
        guard let representable = value as? any ConformanceRepresentable else {
            throw ConformanceFailure(
                "The output type \(type(of: value)) has no canonical form: conform it to ConformanceRepresentable.")
        }
        return try representable.conformanceValue()
    }
}
