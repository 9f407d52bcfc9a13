/// What a ``RecordStream`` does with a record that could not be decoded.
public enum RecordErrorPolicy: String, Sendable, Hashable, CaseIterable {
    /// The stream ends with the record's error (thrown from `next()`), after every record before it.
    case stop
    /// The record is left out and the stream goes on; its error is kept in ``RecordStream/skippedErrors``.
    case skip
    /// The record is left out and the stream goes on; when the body ends, `next()` throws one error listing every
    /// record left out (in ``SerializationError/attempts``), after every record that decoded. The errors are also
    /// in ``RecordStream/skippedErrors``.
    case collect
}
