import Decant
import DecantConformance
import DecantWARC
import Foundation

/// Helpers of the WARC tests (a plugin's tests do without DecantTestSupport: they use only what a third party has).
enum WARCTestSupport {
    /// The registry of the conformance fixtures and of `decant`.
    static let registry = SerializerRegistry.standard.installing(.warc)
}
