/// A member of a room as the state machine keeps them.
struct RoomMember: Sendable, Hashable {
    let id: PlayerID
    let name: PlayerName
    /// Join order; unique within the room and never reused.
    let seat: Int
    var role: MemberRole
    var isReady: Bool
    var connection: Connection

    enum Connection: Sendable, Hashable {
        case connected
        /// Dropped at `since`; counts as having left at `since` unless they
        /// reconnect before `deadline`.
        case disconnected(since: RaceInstant, deadline: RaceInstant)
    }

    var isConnected: Bool {
        switch connection {
        case .connected: true
        case .disconnected: false
        }
    }

    var graceDeadline: RaceInstant? {
        switch connection {
        case .connected: nil
        case .disconnected(_, let deadline): deadline
        }
    }
}
