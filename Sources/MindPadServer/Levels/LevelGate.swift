import MindPadRules
import MindPadStorage

/// Which levels of a game a player has passed (`level_progress`), asked
/// before a player races a level above the first: `create_room` and
/// `join_room` of a locked level are refused (`level_locked`) before
/// anything is played or stored. The completion may run on any thread.
public protocol LevelDirectory: Sendable {
    /// The levels of `game` the player has passed; a failure when the
    /// database cannot say.
    func passedLevels(playerID: Int64, game: String, completion: @escaping @Sendable (Result<Set<Int>, PostgresError>) -> Void)
}

/// The levels on PostgreSQL, read as the levels API reads them.
public struct PostgresLevelDirectory: LevelDirectory {
    let pool: DatabaseWorkerPool

    public init(pool: DatabaseWorkerPool) {
        self.pool = pool
    }

    public func passedLevels(playerID: Int64, game: String,
                             completion: @escaping @Sendable (Result<Set<Int>, PostgresError>) -> Void) {
        pool.run({ connection in
            Set(try LevelStore(connection).progress(playerID: playerID, game: game).filter(\.passed).map(\.level))
        }, within: ScoresAPI.readDeadline, completion: { completion($0) })
    }
}

extension RealtimeHub {
    /// Runs `then` on the service thread once `player` may race `level` of
    /// `game`: at once for a game without levels, level 1, or a hub without
    /// a level directory (tests of other things); otherwise after the
    /// directory said which levels the player passed (`LevelLadder.isOpen`).
    /// A locked level is answered `level_locked`, a directory that cannot
    /// say `unavailable`; `then` never runs for a session that went away or
    /// changed player meanwhile (the caller checks the rest again).
    func whenLevelOpen(_ level: Int?, of game: GameInfo, for player: Session.Player, session: Session, request: String,
                       then: @escaping () -> Void) {
        guard let level, level > 1, game.hasLevels, let levels else { return then() }
        let connection = session.connection
        let later = UncheckedBox(then)
        levels.passedLevels(playerID: player.accountID, game: game.identifier) { [weak self] result in
            guard let self else { return }
            self.transport.post {
                guard let session = self.sessions[connection], session.player?.id == player.id else { return }
                switch result {
                case .success(let passed) where LevelLadder.isOpen(level, passed: passed):
                    later.value()
                case .success:
                    self.reply(session, Self.levelLocked(level, of: game, request: request))
                case .failure(let error):
                    self.logger.warning("level progress not read", metadata: ["error": "\(error)"])
                    self.reply(session, ProtocolError(.unavailable, "Your levels cannot be checked right now; try again in a moment.",
                                                      request: request))
                }
            }
        }
    }

    /// "Level 3 (Cat) of Counting is not open for you yet: …", naming what opens it.
    static func levelLocked(_ level: Int, of game: GameInfo, request: String) -> ProtocolError {
        let name = { (n: Int) in game.levels.indices.contains(n - 1) ? " (\(game.levels[n - 1].en))" : "" }
        let mark = game.passMark.map { " (\($0) of \(game.normalQuestionCount) right)" } ?? ""
        return ProtocolError(.levelLocked, "Level \(level)\(name(level)) of \(game.names.en) is not open for you yet: "
                             + "pass level \(level - 1)\(name(level - 1))\(mark) first.", request: request)
    }
}
