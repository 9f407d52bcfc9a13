import Foundation

/// About 1 MB of text in UTF-8, windows-1252 and Shift_JIS, generated from word lists with a fixed seed.
enum GeneratedText {
    /// The size each text grows to, in bytes.
    static let targetBytes = 1 << 20

    /// Western European prose (French, German, Spanish) with the characters windows-1252 has above 0x7F: accented
    /// letters, `€`, curly quotes, dashes and `…`.
    static let westernWords = [
        "déjà", "élève", "où", "garçon", "château", "Müller", "Straße", "Größe", "über", "naïve", "año", "niño",
        "corazón", "€", "“citation”", "‘bien’", "—", "–", "…", "œuvre", "Æsop", "façade", "crème", "brûlée",
        "the", "and", "of", "le", "la", "les", "und", "der", "die", "el", "que", "de", "price", "time", "Zürich",
        "São", "Ørsted", "±", "°C", "½", "©", "®", "™", "•", "«guillemets»", "¿qué?", "¡sí!",
    ]

    /// Japanese text: hiragana, katakana, a few kanji, ASCII digits and punctuation.
    static let japaneseWords = [
        "日本語", "東京", "大学", "年", "月", "時", "の", "は", "を", "に", "が", "です", "ます", "ありがとう",
        "こんにちは", "カタカナ", "コンピュータ", "データ", "ネットワーク", "サーバー", "、", "。", "2024", "HTTP",
        "レスポンス", "ひらがな", "ゆっくり", "ベンチマーク", "テスト", " ",
    ]

    /// UTF-8 text mixing the Western and Japanese word lists (mostly ASCII, some 2- and 3-byte sequences).
    static let utf8: Data = Data(words(westernWords + japaneseWords, seed: 1).utf8)

    /// windows-1252 bytes of Western prose.
    static let windows1252: Data = {
        let text = words(westernWords, seed: 2)
        return Data(text.unicodeScalars.map { windows1252Byte($0) })
    }()

    /// Shift_JIS bytes of Japanese text.
    static let shiftJIS: Data = {
        var bytes: [UInt8] = []
        for scalar in words(japaneseWords, seed: 3).unicodeScalars { bytes += shiftJISBytes(scalar) }
        return Data(bytes)
    }()

    /// Words from `list`, separated by spaces and with a line break every 12 words, until ``targetBytes``.
    private static func words(_ list: [String], seed: UInt64) -> String {
        var generator = SeededGenerator(seed: seed)
        var text = ""
        var count = 0
        while text.utf8.count < targetBytes {
            text += generator.pick(list)
            count += 1
            text += count % 12 == 0 ? "\n" : " "
        }
        return text
    }

    /// windows-1252's bytes 0x80-0x9F that are not C1 controls, by the scalar they decode to.
    private static let windows1252High: [Unicode.Scalar: UInt8] = [
        "€": 0x80, "‚": 0x82, "ƒ": 0x83, "„": 0x84, "…": 0x85, "†": 0x86, "‡": 0x87, "ˆ": 0x88, "‰": 0x89, "Š": 0x8A,
        "‹": 0x8B, "Œ": 0x8C, "Ž": 0x8E, "‘": 0x91, "’": 0x92, "“": 0x93, "”": 0x94, "•": 0x95, "–": 0x96,
        "—": 0x97, "˜": 0x98, "™": 0x99, "š": 0x9A, "›": 0x9B, "œ": 0x9C, "ž": 0x9E, "Ÿ": 0x9F,
    ]

    /// The windows-1252 byte of `scalar` (`?` for one the word list should not contain).
    private static func windows1252Byte(_ scalar: Unicode.Scalar) -> UInt8 {
        if let byte = windows1252High[scalar] { return byte }
        if scalar.value < 0x80 || (0xA0...0xFF).contains(scalar.value) { return UInt8(scalar.value) }
        return UInt8(ascii: "?")
    }

    /// Shift_JIS codes of the kanji in the word list (JIS X 0208).
    private static let kanji: [Unicode.Scalar: UInt16] = [
        "日": 0x93FA, "本": 0x967B, "語": 0x8CEA, "東": 0x938C, "京": 0x8B9E, "大": 0x91E5, "学": 0x8A77,
        "年": 0x944E, "月": 0x8C8E, "時": 0x8E9E, "、": 0x8141, "。": 0x8142, "ー": 0x815B,
    ]

    /// The Shift_JIS bytes of `scalar`: ASCII, hiragana (0x829F...), katakana (0x8340..., skipping 0x7F), or the
    /// kanji and punctuation above.
    private static func shiftJISBytes(_ scalar: Unicode.Scalar) -> [UInt8] {
        let value = scalar.value
        var code: UInt16
        if value < 0x80 {
            return [UInt8(value)]
        } else if let known = kanji[scalar] {
            code = known
        } else if (0x3041...0x3093).contains(value) {
            code = 0x829F + UInt16(value - 0x3041)
        } else if (0x30A1...0x30F6).contains(value) {
            code = 0x8340 + UInt16(value - 0x30A1)
            if code >= 0x837F { code += 1 }
        } else {
            return [UInt8(ascii: "?")]
        }
        return [UInt8(code >> 8), UInt8(code & 0xFF)]
    }
}
