/// How ``PNGWriter`` writes a PNG file.
public struct PNGWritingOptions: Sendable, Hashable {
    /// Whether an image of at most 256 distinct colours (RGBA) may be written as an indexed-colour file (PNG colour
    /// type 3, with a `PLTE` and, for translucent colours, a `tRNS` chunk) when that is smaller. Default `true`; set it
    /// to `false` for files whose readers expect direct colour.
    public var allowsPalette: Bool

    /// Options with the given choices.
    public init(allowsPalette: Bool = true) {
        self.allowsPalette = allowsPalette
    }
}
