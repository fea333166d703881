import MindPadStorage

/// One finished result on its way from the journal to PostgreSQL, and what
/// to tell whom when: a pure state machine (`ResultRecorder` carries out
/// its actions).
///
/// 1. The result's journal group is formed: the database write starts,
///    side by side with the group's write and fsync (issue 20: the fsync
///    no longer comes before the write's time).
/// 2. The journal append is on disk: `durable` is told (the player may now
///    learn the race is over).
/// 3. PostgreSQL stores it: the delivery is `.stored`, the journal entry is
///    marked done. Stored before its entry was on disk, the result waits
///    for the journal: then `durable` and the delivery are told, in that
///    order, and the entry is marked done (queued after the group that
///    wrote it, so the mark cannot come first and the replay never writes
///    it twice). A crash before the entry is written loses nothing: the
///    database has it and the journal never will.
/// 4. PostgreSQL has not answered `acknowledgeWithin` after hand-over: the
///    delivery is `.journaled`; the write goes on, and whatever it ends in
///    is not told again. A transient failure leaves the entry in the
///    journal for the replay; a refusal for good sets it aside.
///
/// If the disk has not answered by the deadline, the database's answer (if
/// any) is told: `durable` comes from whichever keeps the result first.
/// If the disk refuses the journal, the database write is the only keeper:
/// `durable` waits for it (or for the deadline, so no player waits forever),
/// and a transient failure tries the journal once more.
struct ResultProgress: Equatable {
    enum Event: Equatable {
        /// The journal group holding the result is formed; its write begins.
        case journaling
        /// The journal append finished: on disk, or refused.
        case journaled(ok: Bool)
        /// The database write ended: stored, failed for now, or refused for good.
        case stored(RecordOutcome)
        case failedTransiently
        case refused
        /// `acknowledgeWithin` passed since hand-over.
        case deadline
    }

    enum Action: Equatable {
        case writeToDatabase
        case tellDurable
        case tellDelivery(ResultDelivery)
        /// Mark the journal entry done: PostgreSQL has it, or it was set aside.
        case markDone
        /// Write it to `rejected-results.jsonl` for an operator.
        case setAside
        /// The journal refused it and so did the database, for now: append again.
        case journalAgain
        /// The database failed for now: the replay writes it later.
        case replay
        /// Nothing more will happen to it here: no longer in flight.
        case forget
    }

    private enum Journal: Equatable { case writing, written, refused }
    private enum Database: Equatable { case idle, writing, stored(RecordOutcome), failedTransiently, refused }

    private var journal = Journal.writing
    private var database = Database.idle
    private var deadlinePassed = false
    private var durableTold = false
    private var deliveryTold = false
    /// The database's answer was acted on (told, set aside, journaled again).
    private var databaseTold = false
    private var forgotten = false

    /// Kept somewhere if the process stopped now: on disk, or stored.
    var isKept: Bool {
        if journal == .written { return true }
        if case .stored = database { return true }
        return false
    }

    mutating func handle(_ event: Event) -> [Action] {
        guard !forgotten else { return [] }
        var actions: [Action] = []
        switch event {
        case .journaling:
            startWrite(&actions)
        case .journaled(let ok):
            guard journal == .writing else { return [] }
            journal = ok ? .written : .refused
            if isAnswered {
                databaseAnswered(&actions)
            } else {
                if ok || deadlinePassed { durable(&actions) }
                if ok && deadlinePassed { deliver(.journaled, &actions) }
                startWrite(&actions)
            }
        case .stored(let outcome):
            database = .stored(outcome)
            databaseAnswered(&actions)
        case .failedTransiently:
            database = .failedTransiently
            databaseAnswered(&actions)
        case .refused:
            database = .refused
            databaseAnswered(&actions)
        case .deadline:
            guard !deadlinePassed else { return [] }
            deadlinePassed = true
            switch journal {
            case .written: deliver(.journaled, &actions)
            case .refused: durable(&actions)
            case .writing:
                // The disk has not answered in time (a hung fsync): the
                // database's answer, if it came, is told now; else the
                // write starts if it has not, and whichever keeps the
                // result first tells `durable`.
                if isAnswered { databaseAnswered(&actions) } else { startWrite(&actions) }
            }
        }
        if actions.contains(.forget) { forgotten = true }
        return actions
    }

    private var isAnswered: Bool {
        switch database {
        case .idle, .writing: false
        case .stored, .failedTransiently, .refused: true
        }
    }

    private mutating func startWrite(_ actions: inout [Action]) {
        guard database == .idle else { return }
        database = .writing
        actions.append(.writeToDatabase)
    }

    /// The database answered: acts on it once the journal has answered too
    /// (or the deadline passed), and forgets the result once its journal
    /// entry needs nothing more.
    private mutating func databaseAnswered(_ actions: inout [Action]) {
        guard journal != .writing || deadlinePassed else { return }   // wait for the disk
        if !databaseTold {
            databaseTold = true
            switch database {
            case .idle, .writing: return
            case .stored(let outcome):
                durable(&actions)
                deliver(.stored(outcome), &actions)
            case .failedTransiently:
                if journal != .written { actions.append(.journalAgain) }
                durable(&actions)
                deliver(.journaled, &actions)
                actions.append(.replay)
                actions.append(.forget)
                return
            case .refused:
                actions.append(.setAside)
                durable(&actions)
                deliver(.journaled, &actions)
            }
        }
        switch journal {
        case .writing: break   // the deadline told; the done mark waits for the entry
        case .written:
            actions.append(.markDone)
            actions.append(.forget)
        case .refused:
            actions.append(.forget)
        }
    }

    private mutating func durable(_ actions: inout [Action]) {
        guard !durableTold else { return }
        durableTold = true
        actions.append(.tellDurable)
    }

    private mutating func deliver(_ delivery: ResultDelivery, _ actions: inout [Action]) {
        guard !deliveryTold else { return }
        deliveryTold = true
        actions.append(.tellDelivery(delivery))
    }
}
