import MindPadRules

/// A room's outgoing messages while finished results are not yet durable.
///
/// A player told that the race is over (`finished`, `standings`, a room in
/// phase `finished`) must never lose their result to a crash of the server,
/// so once a racer finishes, everything the room says from then on waits,
/// in order, until every result finished before it is in the fsynced
/// journal (`ResultSink.record(_:durable:completion:)`), typically one
/// fsync: a few milliseconds. Game state and timers do not wait; only what
/// the players hear. Service thread only.
struct HeldMessages {
    private var awaiting = 0
    private var queue: [(message: OutgoingMessage, to: [PlayerID])] = []

    /// Whether a message must wait now.
    var isHolding: Bool { awaiting > 0 }

    /// One more result must be durable before anything goes out.
    mutating func hold() { awaiting += 1 }

    /// Keeps `message` for `players` until the holds are released.
    mutating func keep(_ message: OutgoingMessage, to players: [PlayerID]) {
        queue.append((message, players))
    }

    /// One result is durable. Returns the messages that may go now, in
    /// order: all of them once no result is awaited, else none.
    mutating func release() -> [(message: OutgoingMessage, to: [PlayerID])] {
        awaiting = max(0, awaiting - 1)
        guard awaiting == 0 else { return [] }
        defer { queue = [] }
        return queue
    }
}
