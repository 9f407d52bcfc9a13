import DecantCore
import Foundation
import Testing

/// `DecodingBudget`: charges add up to the limit and no further, a refusal exhausts the budget, arithmetic saturates,
/// and `withBudget` binds one budget for everything inside it, across threads.
@Suite struct DecodingBudgetTests {
    @Test func chargesAddUpToTheLimit() throws {
        let budget = DecodingBudget(maxBytes: 100)
        try budget.charge(60, for: "a")
        try budget.charge(40, for: "b")
        #expect(budget.usedBytes == 100)
        #expect(budget.remainingBytes == 0)
        #expect(!budget.isExhausted)
    }

    @Test func aRefusedChargeExhaustsTheBudget() throws {
        let budget = DecodingBudget(maxBytes: 100)
        try budget.charge(60, for: "the first part")
        let error = #expect(throws: SerializationError.self) { try budget.charge(41, for: "the second part") }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("the second part") == true)
        #expect(error?.message.contains("DecodingBudget.maxBytes") == true)
        #expect(error?.message.contains("101 bytes") == true)
        #expect(budget.isExhausted)
        #expect(budget.remainingBytes == 0)
        #expect(budget.usedBytes == 60)
        // Even a charge that would have fit is refused now: the response's values did not fit.
        #expect(throws: SerializationError.self) { try budget.charge(1, for: "a third part") }
    }

    @Test(arguments: [Int.max, Int.max - 1, Int.max / 2 + 1])
    func hugeChargesSaturateInsteadOfTrapping(_ bytes: Int) throws {
        let budget = DecodingBudget(maxBytes: Int.max - 1)
        try budget.charge(Int.max / 2 + 1, for: "a")
        #expect(throws: SerializationError.self) { try budget.charge(bytes, for: "b") }
        #expect(budget.isExhausted)
    }

    @Test func negativeChargesAndLimitsCountAsZero() throws {
        let budget = DecodingBudget(maxBytes: -5)
        #expect(budget.maxBytes == 0)
        try budget.charge(-10, for: "nothing")
        #expect(budget.usedBytes == 0)
        #expect(throws: SerializationError.self) { try budget.charge(1, for: "one byte") }
    }

    @Test func expansionHasItsOwnAllowance() throws {
        let budget = DecodingBudget(maxBytes: 10, maxExpansionBytes: 1000)
        try budget.chargeExpansion(600, for: "a document")
        try budget.charge(10, for: "its tree")
        #expect(budget.expandedBytes == 600)
        #expect(budget.remainingExpansionBytes == 400)
        #expect(budget.cappingExpansion(500) == (limit: 400, budgetBinds: true))
        let error = #expect(throws: SerializationError.self) { try budget.chargeExpansion(401, for: "a second one") }
        #expect(error?.message.contains("DecodingBudget.maxExpansionBytes") == true)
        #expect(budget.isExhausted)
        #expect(budget.remainingExpansionBytes == 0)
    }

    @Test func aRefusalMarksTheBudgetExhausted() {
        let budget = DecodingBudget(maxBytes: 100)
        let error = budget.refusal(for: "an image")
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("an image"))
        #expect(budget.isExhausted)
        #expect(budget.remainingBytes == 0)
    }

    @Test func cappingNamesTheBindingLimit() throws {
        let budget = DecodingBudget(maxBytes: 1000)
        try budget.charge(700, for: "a")
        #expect(budget.capping(500) == (limit: 300, budgetBinds: true))
        #expect(budget.capping(200) == (limit: 200, budgetBinds: false))
    }

    @Test func withBudgetBindsTheBudgetForItsBodyOnly() throws {
        #expect(DecodingBudget.current == nil)
        let budget = DecodingBudget(maxBytes: 10)
        let seen = DecodingBudget.withBudget(budget) { DecodingBudget.current }
        #expect(seen === budget)
        #expect(DecodingBudget.current == nil)
        // A typed error thrown inside comes out as it is.
        let error = #expect(throws: SerializationError.self) {
            try DecodingBudget.withBudget(budget) { () throws(SerializationError) in
                try budget.charge(11, for: "too much")
            }
        }
        #expect(error?.code == .limitExceeded)
    }

    @Test func chargesFromManyTasksAreAllCounted() async throws {
        let budget = DecodingBudget(maxBytes: 1_000_000)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<1000 { try? budget.charge(3, for: "a value") }
                }
            }
        }
        #expect(budget.usedBytes == 24_000)
    }
}
