import MindPadStorage

/// One finished result on its way from the journal to PostgreSQL, and what
/// to tell whom when: a pure state machine (`ResultRecorder` carries out
/// its actions).
///
/// 1. The result is appended to the fsynced journal; then `durable` is
///    told (the player may now learn the race is over) and the database
///    write starts.
/// 2. PostgreSQL stores it: the delivery is `.stored`, the journal entry is
///    marked done.
/// 3. PostgreSQL has not answered `acknowledgeWithin` after hand-over: the
///    delivery is `.journaled`; the write goes on, and whatever it ends in
///    is not told again. A transient failure leaves the entry in the
///    journal for the replay; a refusal for good sets it aside.
///
/// If the disk has not answered by the deadline, the database write starts
/// too, and `durable` comes from whichever keeps the result first.
/// If the disk refuses the journal, the database write is the only keeper:
/// `durable` waits for it (or for the deadline, so no player waits forever),
/// and a transient failure tries the journal once more.
struct ResultProgress: Equatable {
    enum Event: Equatable {
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
        /// Nothing more will happen to it here: no longer in flight.
        case forget
    }

    private enum Journal: Equatable { case writing, written, refused }

    private var journal = Journal.writing
    private var writingToDatabase = false
    private var deadlinePassed = false
    private var durableTold = false
    private var deliveryTold = false

    var isJournaled: Bool { journal == .written }

    mutating func handle(_ event: Event) -> [Action] {
        var actions: [Action] = []
        switch event {
        case .journaled(let ok):
            guard journal == .writing else { return [] }
            journal = ok ? .written : .refused
            if ok { durable(&actions) } else if deadlinePassed { durable(&actions) }
            if ok && deadlinePassed { deliver(.journaled, &actions) }
            if !writingToDatabase {
                writingToDatabase = true
                actions.append(.writeToDatabase)
            }
        case .stored(let outcome):
            durable(&actions)
            deliver(.stored(outcome), &actions)
            if journal == .written { actions.append(.markDone) }
            actions.append(.forget)
        case .failedTransiently:
            if journal != .written { actions.append(.journalAgain) }
            durable(&actions)
            deliver(.journaled, &actions)
            actions.append(.forget)
        case .refused:
            actions.append(.setAside)
            if journal == .written { actions.append(.markDone) }
            durable(&actions)
            deliver(.journaled, &actions)
            actions.append(.forget)
        case .deadline:
            guard !deadlinePassed else { return [] }
            deadlinePassed = true
            switch journal {
            case .written: deliver(.journaled, &actions)
            case .refused: durable(&actions)
            case .writing:
                // The disk has not answered in time (a hung fsync): the
                // database write starts anyway, and whichever keeps the
                // result first tells `durable`.
                if !writingToDatabase {
                    writingToDatabase = true
                    actions.append(.writeToDatabase)
                }
            }
        }
        return actions
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
