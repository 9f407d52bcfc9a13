import DecantCore
import Foundation

@testable import DecantImage

/// What decoding `data` with the default options gives, as one line for a corpus test's log: the size and frame
/// count, or the error's code and message. Corpus tests that only require "no crash" print it per file.
func decodeOutcome(_ data: Data) -> String {
    do {
        let image = try ImageDecoder.decode(data, options: ImageDecodingOptions())
        return "decoded \(image.width)×\(image.height), \(image.frameCount) frames"
    } catch {
        return "[\(error.code)] \(error.message)"
    }
}
