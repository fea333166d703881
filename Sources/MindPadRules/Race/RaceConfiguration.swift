/// Everything a room can be tuned with. Defaults are the game's rules;
/// tests shorten the times.
public struct RaceConfiguration: Sendable, Hashable {
    /// Normal, Survival or Time Attack.
    public var mode: GameMode
    /// Racers per race (seats). Later joiners spectate.
    public var maxPlayers: Int
    /// Spectators on top of the racers; beyond that, joins are refused.
    public var maxSpectators: Int
    /// Racers needed before the host may start.
    public var minimumPlayers: Int
    /// If true, the host may start only when every other racer is ready
    /// and connected; if false, ready flags are informative.
    public var requireReady: Bool
    /// Time between the host's start and the first question.
    public var countdown: RaceDuration
    /// Length of a Time Attack race, the same server time for everyone.
    public var timeAttackLength: RaceDuration
    /// How long a disconnected member keeps their seat (and race) before
    /// they count as having left.
    public var reconnectGrace: RaceDuration
    /// The level raced, for a game with levels (`GameKind.levels`): every
    /// question is drawn at this level. nil for a game without levels.
    public var level: Int?
    /// A lesson's room (issue 46): a teacher outside the room conducts it
    /// (`RaceEvent.conduct`): starts it, pauses and resumes it, stops it
    /// and calls the next round. No member is host, and the room stays
    /// open when its last member leaves, until the teacher closes it.
    public var conducted: Bool

    /// - Parameters:
    ///   - mode: how the race is played and scored.
    ///   - maxPlayers: seats per race, default 8.
    ///   - maxSpectators: extra members who watch, default 16.
    ///   - minimumPlayers: racers needed to start, default 1 (solo play).
    ///   - requireReady: whether every racer must be ready to start, default false.
    ///   - countdown: default 3 s.
    ///   - timeAttackLength: default 150 s.
    ///   - reconnectGrace: default 30 s.
    ///   - level: the level raced (games with levels), default none.
    ///   - conducted: a lesson's room, conducted by a teacher, default false.
    public init(
        mode: GameMode,
        maxPlayers: Int = 8,
        maxSpectators: Int = 16,
        minimumPlayers: Int = 1,
        requireReady: Bool = false,
        countdown: RaceDuration = .seconds(3),
        timeAttackLength: RaceDuration = .seconds(150),
        reconnectGrace: RaceDuration = .seconds(30),
        level: Int? = nil,
        conducted: Bool = false
    ) {
        precondition(maxPlayers >= 1 && maxSpectators >= 0, "a room needs at least one seat")
        precondition(minimumPlayers >= 1 && minimumPlayers <= maxPlayers, "minimumPlayers must fit the seats")
        precondition(countdown >= .zero && timeAttackLength > .zero && reconnectGrace >= .zero, "times must not be negative")
        self.mode = mode
        self.maxPlayers = maxPlayers
        self.maxSpectators = maxSpectators
        self.minimumPlayers = minimumPlayers
        self.requireReady = requireReady
        self.countdown = countdown
        self.timeAttackLength = timeAttackLength
        self.reconnectGrace = reconnectGrace
        self.level = level
        self.conducted = conducted
    }
}
