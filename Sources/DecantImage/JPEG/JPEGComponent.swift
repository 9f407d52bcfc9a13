/// One colour component of a JPEG frame (ITU-T T.81 §B.2.2): its sampling factors, quantization table, size, and the
/// coefficients its scans decode, block by block.
struct JPEGComponent {
    /// The component identifier (Ci) that scans refer to.
    var id: Int
    /// Horizontal sampling factor (Hi), 1...4.
    var horizontal: Int
    /// Vertical sampling factor (Vi), 1...4.
    var vertical: Int
    /// The quantization table selector (Tqi), 0...3.
    var quantizationSelector: Int
    /// The quantization table in natural order, latched when the component's first scan starts (T.81 §B.2.4.1).
    var quantization: [Int16]?
    /// The component's size in samples: the image size scaled by its sampling factors, rounded up (T.81 §A.1.1).
    var width: Int, height: Int
    /// The blocks the frame's MCUs cover, per row and per column (at least the blocks that hold samples).
    var blocksPerLine: Int, blocksPerColumn: Int
    /// The coefficients, 64 per block in natural order, blocks row by row.
    var coefficients: JPEGCoefficients
    /// The DC and AC Huffman table selectors of the scan being decoded.
    var dcTable = 0, acTable = 0

    /// The blocks that hold samples of the component, per row: what a non-interleaved scan codes (T.81 §A.2.2).
    var usedBlocksPerLine: Int { (width + 7) / 8 }
    /// The blocks that hold samples of the component, per column.
    var usedBlocksPerColumn: Int { (height + 7) / 8 }
}
