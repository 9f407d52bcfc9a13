import DecantCore

/// What an encoder does with a character its encoding cannot represent (WHATWG Encoding §4.1, the "error mode" of
/// an encoder).
///
/// UTF-8 and UTF-16 represent every character, and so does gb18030 except U+E5E5; the legacy encodings represent a
/// part of Unicode only (windows-1252 has no `→`, Shift_JIS no `é`).
public enum TextEncodingMode: Sendable, Hashable {
    /// The standard's "fatal" error mode: encoding stops at the first character the encoding cannot represent, with
    /// a `SerializationError` (code `encodingFailed`) whose message names the character and its offset, and whose
    /// `underlying` error is a ``TextEncodingError``.
    case strict
    /// The standard's "html" error mode, what browsers do when they submit a form: each character the encoding
    /// cannot represent is written as a decimal numeric character reference, `&#8594;` for `→`. Only HTML (and XML)
    /// readers turn it back into the character; in plain text it stays `&#8594;`.
    case html
}
