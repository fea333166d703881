/// Everything members may know about a room, for `RaceEffect.roomUpdated`
/// and for late joiners. It never contains the seed: with the seed and
/// this open-source generator a client could compute every answer.
public struct RoomSnapshot: Sendable, Hashable, Codable {
    /// 1 for the first race of the room, +1 per rematch.
    public let round: Int
    public let mode: GameMode
    /// The game kind's identifier, e.g. `mindpad`.
    public let kind: String
    /// The level the room plays (games with levels), nil otherwise.
    public let level: Int?
    public let phase: RoomPhase
    public let host: PlayerID?
    /// In join order.
    public let members: [MemberSnapshot]
    public let maxPlayers: Int
    /// A lesson's race the teacher paused (`Conduct.pause`).
    public var isPaused = false
}

/// Where a room is in its life.
public enum RoomPhase: Sendable, Hashable, Codable {
    case lobby
    case countdown(startsAt: RaceInstant)
    case running(startedAt: RaceInstant, endsAt: RaceInstant?)
    case finished
    case disposed
}

/// One member as others see them.
public struct MemberSnapshot: Sendable, Hashable, Codable {
    public let id: PlayerID
    public let name: PlayerName
    public let role: MemberRole
    public let isReady: Bool
    public let isConnected: Bool
    public let isHost: Bool
}

/// Racers race; spectators watch (and race from the next rematch if a seat
/// is free).
public enum MemberRole: String, Sendable, Hashable, Codable {
    case racer
    case spectator
}
