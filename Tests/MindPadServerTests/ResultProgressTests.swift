import MindPadStorage
import Testing
@testable import MindPadServer

/// The steps of one result, journal first: what is told when, for every
/// order in which the journal, the database and the 2 s deadline answer.
@Suite struct ResultProgressTests {
    let best = RecordOutcome(stored: true, personalBest: true, previousBest: 3)

    func run(_ events: [ResultProgress.Event]) -> [[ResultProgress.Action]] {
        var progress = ResultProgress()
        return events.map { progress.handle($0) }
    }

    @Test func aHealthyDatabaseIsToldAsStored() {
        #expect(run([.journaled(ok: true), .stored(best), .deadline]) == [
            [.tellDurable, .writeToDatabase],
            [.tellDelivery(.stored(best)), .markDone, .forget],
            [],
        ])
    }

    @Test func aDatabaseSlowerThanTheDeadlineIsToldAsJournaledOnce() {
        #expect(run([.journaled(ok: true), .deadline, .stored(best)]) == [
            [.tellDurable, .writeToDatabase],
            [.tellDelivery(.journaled)],
            [.markDone, .forget],
        ])
        // Failing later leaves it for the replay, told nothing more.
        #expect(run([.journaled(ok: true), .deadline, .failedTransiently]) == [
            [.tellDurable, .writeToDatabase],
            [.tellDelivery(.journaled)],
            [.forget],
        ])
    }

    @Test func aDiskSlowerThanTheDeadlineStartsTheDatabaseWriteAndTheFirstKeeperTells() {
        // The disk answers first, after the deadline: durable then, told journaled.
        #expect(run([.deadline, .journaled(ok: true), .stored(best)]) == [
            [.writeToDatabase],
            [.tellDurable, .tellDelivery(.journaled)],
            [.markDone, .forget],
        ])
        // A hung disk: the database keeps it first; nothing is durable before.
        #expect(run([.deadline, .stored(best), .journaled(ok: true)]) == [
            [.writeToDatabase],
            [.tellDurable, .tellDelivery(.stored(best)), .forget],
            [],
        ])
    }

    @Test func anUnreachableDatabaseLeavesTheResultToTheReplay() {
        #expect(run([.journaled(ok: true), .failedTransiently, .deadline]) == [
            [.tellDurable, .writeToDatabase],
            [.tellDelivery(.journaled), .forget],
            [],
        ])
    }

    @Test func aRefusedResultIsSetAsideAndDone() {
        #expect(run([.journaled(ok: true), .refused]) == [
            [.tellDurable, .writeToDatabase],
            [.setAside, .markDone, .tellDelivery(.journaled), .forget],
        ])
    }

    @Test func whenTheDiskRefusesOnlyTheDatabaseKeepsIt() {
        // Durable once the database has it.
        #expect(run([.journaled(ok: false), .stored(best)]) == [
            [.writeToDatabase],
            [.tellDurable, .tellDelivery(.stored(best)), .forget],
        ])
        // The deadline does not leave the player waiting; the database
        // failing then tries the journal once more.
        #expect(run([.journaled(ok: false), .deadline, .failedTransiently]) == [
            [.writeToDatabase],
            [.tellDurable],
            [.journalAgain, .tellDelivery(.journaled), .forget],
        ])
    }

    @Test func repeatedEventsTellNothingTwice() {
        var progress = ResultProgress()
        _ = progress.handle(.journaled(ok: true))
        #expect(progress.handle(.journaled(ok: true)).isEmpty)
        #expect(progress.handle(.deadline) == [.tellDelivery(.journaled)])
        #expect(progress.handle(.deadline).isEmpty)
        #expect(progress.isJournaled)
    }
}
