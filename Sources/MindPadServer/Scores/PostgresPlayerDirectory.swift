import MindPadStorage

/// Players on PostgreSQL: a new name gets a random token whose SHA-256 is
/// stored; a returning player's token (the first one, or a device's from a
/// sign-in code) is checked by `ScoreStore.authenticate`, as every player
/// endpoint checks it.
public struct PostgresPlayerDirectory: PlayerDirectory {
    let pool: DatabaseWorkerPool

    public init(pool: DatabaseWorkerPool) {
        self.pool = pool
    }

    public func register(name: String, nameKey: String,
                         completion: @escaping @Sendable (Result<(IdentifiedPlayer, token: String), IdentityError>) -> Void) {
        let token = PlayerToken.generate()
        let hash = PlayerToken.hash(token)
        pool.run({ connection in
            try ScoreStore(connection).createPlayer(name: name, nameKey: nameKey, tokenHash: hash)
        }, completion: { result in
            switch result {
            case .success(let player?): completion(.success((IdentifiedPlayer(id: player.id, name: player.name), token)))
            case .success(nil): completion(.failure(.nameTaken))
            case .failure: completion(.failure(.unavailable))
            }
        })
    }

    public func authenticate(nameKey: String, token: String,
                             completion: @escaping @Sendable (Result<IdentifiedPlayer, IdentityError>) -> Void) {
        pool.run({ connection -> (PlayerAuthentication, StoredHand?) in
            let outcome = try ScoreStore(connection).authenticate(nameKey: nameKey, token: token)
            guard case .player(let player) = outcome else { return (outcome, nil) }
            return (outcome, try HandStore(connection).load(playerID: player.id))
        }, within: ScoresAPI.readDeadline, completion: { result in
            switch result.map(\.0) {
            case .success(.player(let player)):
                let hand = (try? result.get().1) ?? nil
                completion(.success(IdentifiedPlayer(id: player.id, name: player.name,
                                                     hand: hand ?? StoredHand(learns: true, bytes: nil, learned: 0))))
            case .success(.wrongToken), .success(.unknownPlayer):
                completion(.failure(.wrongToken))
            case .failure:
                completion(.failure(.unavailable))
            }
        })
    }

    public func keepHand(playerID: Int64, bytes: [UInt8], learned: Int, completion: @escaping @Sendable (Bool) -> Void) {
        pool.run({ connection in
            try HandStore(connection).save(playerID: playerID, bytes: bytes, learned: learned)
        }, completion: { completion((try? $0.get()) ?? false) })
    }

    public func setHandLearning(playerID: Int64, learns: Bool, forget: Bool, completion: @escaping @Sendable (Bool) -> Void) {
        pool.run({ connection in
            let store = HandStore(connection)
            if forget { try store.forget(playerID: playerID) }
            return try store.setLearns(playerID: playerID, learns)
        }, completion: { completion((try? $0.get()) ?? false) })
    }
}
