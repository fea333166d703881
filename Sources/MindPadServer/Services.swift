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

/// A player the server knows: the database id and the name as registered.
public struct IdentifiedPlayer: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
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
}

/// What became of a finished game's result.
public enum ResultDelivery: Sendable, Equatable {
    /// Written to PostgreSQL.
    case stored(RecordOutcome)
    /// PostgreSQL was unreachable: kept in the journal (fsynced) and written
    /// once it is back. Whether it is a personal best is not known yet.
    case journaled
}

/// Where finished games go. Never loses a result it has accepted; the
/// completion may run on any thread.
public protocol ResultSink: Sendable {
    func record(_ result: GameResultRecord, completion: @escaping @Sendable (ResultDelivery) -> Void)
}
