import MindPadRules

/// What a room says to racers whose finished result is not yet durable.
///
/// A player told that their run or the race is over (`finished`,
/// `standings`, a room in phase `finished`) must never lose their result to
/// a crash of the server. So once a racer finishes, everything the room says
/// to that racer waits, in order, until their result is in the fsynced
/// journal (`ResultSink.record(_:durable:completion:)`), typically one
/// fsync: a few milliseconds. Racers still playing are not held: their
/// questions and grades go at once, whatever anyone else's journal does.
/// Game state and timers never wait. Service thread only.
struct HeldMessages {
    private var holds: [PlayerID: (awaiting: Int, queue: [OutgoingMessage])] = [:]

    /// Whether messages to `player` must wait now.
    func isHolding(_ player: PlayerID) -> Bool { (holds[player]?.awaiting ?? 0) > 0 }

    /// One more of `player`'s results must be durable before they hear more.
    mutating func hold(_ player: PlayerID) {
        holds[player, default: (0, [])].awaiting += 1
    }

    /// Keeps `message` for `player` until their holds are released.
    mutating func keep(_ message: OutgoingMessage, for player: PlayerID) {
        holds[player, default: (0, [])].queue.append(message)
    }

    /// One of `player`'s results is durable. Returns what may go to them
    /// now, in order: everything once no result of theirs is awaited.
    mutating func release(_ player: PlayerID) -> [OutgoingMessage] {
        guard var hold = holds[player] else { return [] }
        hold.awaiting = max(0, hold.awaiting - 1)
        guard hold.awaiting == 0 else {
            holds[player] = hold
            return []
        }
        holds[player] = nil
        return hold.queue
    }
}
