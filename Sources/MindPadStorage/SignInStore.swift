import Foundation

/// What became of a one-time sign-in code.
public enum SignInOutcome: Sendable, Equatable {
    /// The code was good: it is used now, and the token hash given to
    /// `redeem` is one of this player's tokens.
    case signedIn(PlayerRecord)
    /// No code hashes so (never made, mistyped, or cleaned up).
    case unknown
    /// Used before.
    case used
    /// Past its `expires_at`.
    case expired
}

/// One-time sign-in codes and the extra device tokens they give
/// (migration 0010: `sign_in_codes`, `player_tokens`), on one connection.
/// Blocking: call it from a database worker. Only SHA-256 hashes of codes
/// and tokens are ever stored.
public struct SignInStore {
    public let connection: PostgresConnection

    /// How long a used or expired code stays after its expiry, so that a
    /// late try is still told "used" or "expired" rather than "unknown".
    public static let keptAfterExpiry: Duration = .seconds(24 * 3600)

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Stores a code for `playerID` valid from `now` until `expiresAt`.
    /// The cleanup happens here, at creation, in the same statement: codes
    /// expired longer than `keptAfterExpiry` ago go (a range of
    /// `sign_in_codes_expiry`), so the table holds at most a day of codes
    /// and nothing runs on a timer. False when the hash is taken (a
    /// collision of two random codes: the caller draws another).
    public func createCode(hash: String, playerID: Int64, now: Date, expiresAt: Date) throws -> Bool {
        let rows = try connection.query("""
            WITH cleaned AS (
                DELETE FROM sign_in_codes
                WHERE expires_at < to_timestamp(\(Self.ms(now))::bigint / 1000.0)
                                   - make_interval(secs => \(Self.keptAfterExpiry.components.seconds)::float8)
            )
            INSERT INTO sign_in_codes (code_hash, player_id, created_at, expires_at)
            VALUES (\(hash), \(playerID)::bigint, to_timestamp(\(Self.ms(now))::bigint / 1000.0),
                    to_timestamp(\(Self.ms(expiresAt))::bigint / 1000.0))
            ON CONFLICT (code_hash) DO NOTHING
            RETURNING 1 AS made
            """)
        return rows.count == 1
    }

    /// Uses the code hashing to `hash` at `now`, once: a good code is
    /// marked used and `tokenHash` becomes one of its player's tokens, in
    /// one statement. The code's row is locked first, so of two devices
    /// racing with one code exactly one signs in; the other is told `used`.
    public func redeem(codeHash hash: String, tokenHash: String, now: Date) throws -> SignInOutcome {
        let at = Self.ms(now)
        let rows = try connection.query("""
            WITH code AS (
                SELECT code_hash, player_id, used_at, expires_at FROM sign_in_codes WHERE code_hash = \(hash) FOR UPDATE
            ), used AS (
                UPDATE sign_in_codes s SET used_at = to_timestamp(\(at)::bigint / 1000.0)
                FROM code
                WHERE s.code_hash = code.code_hash AND code.used_at IS NULL
                  AND code.expires_at > to_timestamp(\(at)::bigint / 1000.0)
                RETURNING s.player_id
            ), token AS (
                INSERT INTO player_tokens (token_hash, player_id, created_at)
                SELECT \(tokenHash), player_id, to_timestamp(\(at)::bigint / 1000.0) FROM used
                RETURNING player_id
            )
            SELECT code.used_at IS NOT NULL AS was_used, (SELECT count(*) FROM token) AS issued,
                   p.id, p.name, (extract(epoch FROM p.created_at) * 1000)::bigint AS created_ms
            FROM code JOIN players p ON p.id = code.player_id
            """)
        guard rows.count == 1 else { return .unknown }
        if rows.value("issued") == "1" { return .signedIn(try ScoreStore.player(rows, 0)) }
        return rows.value("was_used") == "t" ? .used : .expired
    }

    /// Milliseconds since 1970, as the statements bind times.
    public static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}
