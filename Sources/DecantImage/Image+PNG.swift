public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension Image {
    /// The size of the pixels of frame `index` of ``frames``: the image's size for an animation frame (whose pixels
    /// are the full canvas), the page's own size (its ``Frame/width`` and ``Frame/height``) for a TIFF page.
    ///
    /// - Precondition: `index` is an index of ``frames``.
    public func pixelSize(ofFrame index: Int) -> (width: Int, height: Int) {
        let frame = frames[index]
        guard format == .tiff else { return (width, height) }
        return (frame.width, frame.height)
    }

    /// Encodes the image, or one of its frames, as a PNG file any viewer opens, decoding its pixels first when they
    /// were not decoded yet.
    ///
    /// The file is written by ``PNGWriter`` with its default options: the smallest lossless colour type, 8-bit
    /// samples, each row filtered adaptively. The metadata of the source (orientation, gamma, density) is not
    /// written: the file holds the pixels as decoded.
    ///
    /// ```swift
    /// let image = try ImageResponseSerializer().serialize(response)
    /// try image.pngData().write(to: URL(fileURLWithPath: "out.png"))
    /// ```
    ///
    /// - Parameter frame: The index in ``frames`` of the animation frame (its full canvas) or TIFF page (at its own
    ///   size, ``pixelSize(ofFrame:)``) to encode; `nil` encodes ``pixels``, the image itself (an animation's first
    ///   frame, a TIFF's first page).
    /// - Returns: The PNG file's bytes.
    /// - Throws: `SerializationError` with code `invalidOption` when `frame` is not an index of ``frames``, the
    ///   decoding error when the pixels were not decoded yet (``isDecoded`` is `false`) and decoding them fails, and
    ///   the errors of ``PNGWriter/write(_:frame:)``.
    public func pngData(frame: Int? = nil) throws(SerializationError) -> Data {
        try PNGWriter().write(decoded(), frame: frame)
    }
}
