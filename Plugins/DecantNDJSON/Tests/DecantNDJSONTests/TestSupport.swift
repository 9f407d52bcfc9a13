import Decant
import DecantConformance
import Foundation

/// Helpers of the NDJSON tests (a plugin's tests do without DecantTestSupport: they use only what a third party has).
enum NDJSONTestSupport {
    /// The shared corpora (`../shared/corpora`), when present.
    static let corpora = TestCorpora()
}
