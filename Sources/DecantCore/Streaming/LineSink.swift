/// What a ``LineFramer`` hands its lines to, in the generic ``LineFramer/consume(_:into:)``: usually a reader's
/// parsing state, so that the per-line work is inlined into the framing loop.
public protocol LineSink {
    /// Takes the next line (or a line over the limit), in the order of the body.
    ///
    /// - Throws: ``SerializationError`` to stop the framing; the framer then throws it.
    mutating func take(_ piece: LineFramer.Piece) throws(SerializationError)
}
