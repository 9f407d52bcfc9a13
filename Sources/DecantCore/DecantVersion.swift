/// The version of the Decant package.
public enum DecantVersion {
    /// The semantic version, such as `0.1.0`. Printed by `decant --version`.
    public static let current = "0.1.0"
}
