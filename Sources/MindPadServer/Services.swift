import MindPadStorage

/// Why a player could not be identified.
public enum IdentityError: Error, Sendable, Equatable {
    /// The name (compared without case) belongs to someone else.
    case nameTaken
    /// The name exists but the token does not match it.
    case wrongToken
    /// The database cannot be reached; try again shortly.
    case unavailable
}

/// A player the server knows: the database id and the name as registered,
/// and what the reader has learned of their hand (a new player: nothing
/// yet, learning on).
public struct IdentifiedPlayer: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var hand: StoredHand
    public init(id: Int64, name: String, hand: StoredHand = StoredHand(learns: true, bytes: nil, learned: 0)) {
        self.id = id
        self.name = name
        self.hand = hand
    }
}

/// Players and their secret tokens. Completions may run on any thread.
public protocol PlayerDirectory: Sendable {
    /// Registers a new name and returns its freshly drawn token (shown to the
    /// player once; only its hash is kept).
    func register(name: String, nameKey: String,
                  completion: @escaping @Sendable (Result<(IdentifiedPlayer, token: String), IdentityError>) -> Void)
    /// Checks a returning player's token.
    func authenticate(nameKey: String, token: String,
                      completion: @escaping @Sendable (Result<IdentifiedPlayer, IdentityError>) -> Void)
    /// Stores what the reader learned of a player's hand (`PlayerHand.bytes`),
    /// unless they switched the learning off meanwhile. Best effort: a hand
    /// not stored is relearned.
    func keepHand(playerID: Int64, bytes: [UInt8], learned: Int, completion: @escaping @Sendable (Bool) -> Void)
    /// Switches the learning of a player's hand on or off (off forgets it),
    /// or, `forget`, forgets what was learned and keeps learning.
    func setHandLearning(playerID: Int64, learns: Bool, forget: Bool, completion: @escaping @Sendable (Bool) -> Void)
}

/// What became of a finished game's result.
public enum ResultDelivery: Sendable, Equatable {
    /// Written to PostgreSQL.
    case stored(RecordOutcome)
    /// PostgreSQL did not acknowledge it in time (down, slow, frozen,
    /// locked): it is in the journal (fsynced) and is written once the
    /// database answers. Whether it is a personal best is not known yet.
    case journaled
}

/// Where finished games go. Never loses a result it has accepted; the
/// callbacks may run on any thread.
public protocol ResultSink: Sendable {
    /// Keeps `result`.
    /// - `durable` runs once, when the result would survive a crash of this
    ///   process (in the fsynced journal, or stored in PostgreSQL). Tell the
    ///   player the race is over only after it.
    /// - `completion` runs once, after `durable`: `.stored` when PostgreSQL
    ///   acknowledged the result within a bound (2 s for `ResultRecorder`),
    ///   else `.journaled`.
    func record(_ result: GameResultRecord, durable: @escaping @Sendable () -> Void,
                completion: @escaping @Sendable (ResultDelivery) -> Void)
}


extension ResultSink {
    /// For callers that need only the delivery (tests, tools).
    public func record(_ result: GameResultRecord, completion: @escaping @Sendable (ResultDelivery) -> Void) {
        record(result, durable: {}, completion: completion)
    }
}
