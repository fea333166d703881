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
            [.replay, .forget],
        ])
    }

    @Test func aDiskSlowerThanTheDeadlineStartsTheDatabaseWriteAndTheFirstKeeperTells() {
        // The disk answers first, after the deadline: durable then, told journaled.
        #expect(run([.deadline, .journaled(ok: true), .stored(best)]) == [
            [.writeToDatabase],
            [.tellDurable, .tellDelivery(.journaled)],
            [.markDone, .forget],
        ])
        // A hung disk: the database keeps it first; nothing is durable
        // before. Its entry, written later, is marked done then.
        #expect(run([.deadline, .stored(best), .journaled(ok: true)]) == [
            [.writeToDatabase],
            [.tellDurable, .tellDelivery(.stored(best))],
            [.markDone, .forget],
        ])
    }

    @Test func anUnreachableDatabaseLeavesTheResultToTheReplay() {
        #expect(run([.journaled(ok: true), .failedTransiently, .deadline]) == [
            [.tellDurable, .writeToDatabase],
            [.tellDelivery(.journaled), .replay, .forget],
            [],
        ])
    }

    @Test func aRefusedResultIsSetAsideAndDone() {
        #expect(run([.journaled(ok: true), .refused]) == [
            [.tellDurable, .writeToDatabase],
            [.setAside, .tellDelivery(.journaled), .markDone, .forget],
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
            [.journalAgain, .tellDelivery(.journaled), .replay, .forget],
        ])
    }

    @Test func repeatedEventsTellNothingTwice() {
        var progress = ResultProgress()
        _ = progress.handle(.journaled(ok: true))
        #expect(progress.handle(.journaled(ok: true)).isEmpty)
        #expect(progress.handle(.deadline) == [.tellDelivery(.journaled)])
        #expect(progress.handle(.deadline).isEmpty)
        #expect(progress.isKept)
    }

    // The database write starts when the journal group is formed, side by
    // side with its fsync (issue 20).

    @Test func theDatabaseWriteStartsWithTheJournalGroup() {
        // The usual order: the fsync is the shorter.
        #expect(run([.journaling, .journaled(ok: true), .stored(best)]) == [
            [.writeToDatabase],
            [.tellDurable],
            [.tellDelivery(.stored(best)), .markDone, .forget],
        ])
    }

    @Test func storedBeforeItsEntryIsWrittenWaitsForTheJournal() {
        // Nothing is told before the entry is on disk; then `durable` and
        // the delivery in that order, and the entry is marked done (not
        // forgotten: its replay would write it again).
        #expect(run([.journaling, .stored(best), .journaled(ok: true)]) == [
            [.writeToDatabase],
            [],
            [.tellDurable, .tellDelivery(.stored(best)), .markDone, .forget],
        ])
        // The disk refuses it: the database alone keeps it, no done mark.
        #expect(run([.journaling, .stored(best), .journaled(ok: false)]) == [
            [.writeToDatabase],
            [],
            [.tellDurable, .tellDelivery(.stored(best)), .forget],
        ])
        // Kept as soon as the database has it.
        var progress = ResultProgress()
        _ = progress.handle(.journaling)
        #expect(!progress.isKept)
        _ = progress.handle(.stored(best))
        #expect(progress.isKept)
    }

    @Test func aDatabaseFailingBeforeTheJournalAnswersWaitsForIt() {
        // Failed for now: left to the replay once on disk, not journaled twice.
        #expect(run([.journaling, .failedTransiently, .journaled(ok: true)]) == [
            [.writeToDatabase],
            [],
            [.tellDurable, .tellDelivery(.journaled), .replay, .forget],
        ])
        // Refused for good: set aside, and its entry marked done once written.
        #expect(run([.journaling, .refused, .journaled(ok: true)]) == [
            [.writeToDatabase],
            [],
            [.setAside, .tellDurable, .tellDelivery(.journaled), .markDone, .forget],
        ])
        // Both refuse: the journal is tried once more.
        #expect(run([.journaling, .failedTransiently, .journaled(ok: false)]) == [
            [.writeToDatabase],
            [],
            [.journalAgain, .tellDurable, .tellDelivery(.journaled), .replay, .forget],
        ])
    }

    @Test func aHungDiskAfterAStoreIsToldAtTheDeadline() {
        // Stored, the disk silent until the deadline: told then, the done
        // mark still waits for the entry.
        #expect(run([.journaling, .stored(best), .deadline, .journaled(ok: true), .deadline]) == [
            [.writeToDatabase],
            [],
            [.tellDurable, .tellDelivery(.stored(best))],
            [.markDone, .forget],
            [],
        ])
        // Refused, the disk silent: set aside once, marked done once written.
        #expect(run([.journaling, .refused, .deadline, .journaled(ok: true)]) == [
            [.writeToDatabase],
            [],
            [.setAside, .tellDurable, .tellDelivery(.journaled)],
            [.markDone, .forget],
        ])
    }
}
