import MindPadStorage

/// Players on PostgreSQL: a new name gets a random token whose SHA-256 is
/// stored; a returning player's token is checked in constant time.
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
        pool.run({ connection in
            try ScoreStore(connection).findPlayer(nameKey: nameKey)
        }, within: ScoresAPI.readDeadline, completion: { result in
            switch result {
            case .success(let found?) where PlayerToken.matches(token, storedHash: found.tokenHash):
                completion(.success(IdentifiedPlayer(id: found.player.id, name: found.player.name)))
            case .success:
                completion(.failure(.wrongToken))
            case .failure:
                completion(.failure(.unavailable))
            }
        })
    }
}
