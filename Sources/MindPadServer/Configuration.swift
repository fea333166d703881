import MindPadHTTP
import MindPadTransport
import Foundation
import Logging
import MindPadStorage

/// Everything the server can be told, in one place. `init(environment:)` is
/// the one place MindPad's environment variables are read (libpq reads its
/// own `PG*`); the executable's flags
/// override them; the defaults are documented here.
public struct Configuration: Sendable {
    /// `PORT` / `--port`: where HTTP and WebSocket listen. Default 8080.
    public var port: Int = 8080
    /// `MINDPAD_HOST` / `--host`: address to bind; nil (default) = all.
    public var host: String?
    /// `DATABASE_URL` / `--database-url`: a libpq URI or key/value string.
    /// Required by `serve` and `migrate`. Never logged unredacted.
    public var databaseURL: String?
    /// `MINDPAD_ADMIN_TOKEN`: bearer token for `/api/admin/*`. When unset
    /// the admin endpoints answer 503: there is no default token.
    public var adminToken: String?
    /// `MINDPAD_TRUSTED_PROXIES`: reverse proxies (addresses or CIDR blocks,
    /// comma-separated) whose `X-Forwarded-For` names the client for the
    /// failure limiter and the admin audit. Default none: the TCP peer is
    /// the client.
    public var trustedProxies: TrustedProxies = .none
    /// `MINDPAD_AUTH_FAILURE_LIMIT`: wrong tokens one client may send for one
    /// purpose (the admin token; a player's token, for their own reset or
    /// their fish, and one-time sign-in codes) within 5 minutes before 429.
    /// Default 5.
    public var authFailureLimit: Int = 5
    /// `MINDPAD_PASSWORD_ITERATIONS`: PBKDF2 rounds for new teachers'
    /// passwords (`PasswordHash`), 1,000…10,000,000. Default 600,000; lower
    /// only for tests that sign up many teachers (the API fuzz). A hash
    /// keeps its own rounds, so passwords set before a change still verify.
    public var passwordIterations: Int = PasswordHash.defaultIterations
    /// `MINDPAD_SUSPICIOUS_DRAWING_MS` (default 80) and
    /// `MINDPAD_SUSPICIOUS_ANSWER_MS` (default 300): a correct answer drawn
    /// in less time (first point to last), or received less than that
    /// after its question was sent, flags its racer `fast_correct` in
    /// `GET /api/admin/suspicious_races`. Each 1…60000.
    public var suspicion = SuspicionThresholds()
    /// `MINDPAD_WEB_ROOT` / `--web-root`: static files. Default `./web`.
    public var webRoot: String = "web"
    /// `MINDPAD_MIGRATIONS` / `--migrations`: SQL files. Default `./Migrations`.
    public var migrationsDirectory: String = "Migrations"
    /// `MINDPAD_DATA_DIR` / `--data-dir`: durable local state (the result
    /// journal). Default `./.data`.
    public var dataDirectory: String = ".data"
    /// `--no-migrate`: skip applying migrations when `serve` starts.
    public var migrateOnStart: Bool = true
    /// `MINDPAD_DB_POOL` / `--db-pool`: database worker threads. Default 2.
    public var databasePoolSize: Int = 2
    /// `MINDPAD_ANSWER_RETENTION_DAYS`: how long every answer's details and
    /// strokes (`result_answers`, for reviews and replays) are kept after
    /// the result, in days; older ones are deleted at start and hourly
    /// (`AnswerRetention`). 0 keeps them forever. Default 30.
    public var answerRetentionDays: Int = 30
    /// `LOG_LEVEL` / `--log-level`: trace, debug, info (default), notice,
    /// warning, error, critical.
    public var logLevel: Logger.Level = .info
    /// `MINDPAD_WEATHER_PLACE` / `--weather-place` and
    /// `MINDPAD_WEATHER_LATLON` / `--weather-latlon`: whose weather the
    /// aquarium shows. Default Rochester, NY (its coordinates built in);
    /// another place is "lat,lon", or any name with its "lat,lon" in the
    /// second variable.
    public var weatherPlace: WeatherPlace = .rochester
    /// `MINDPAD_WEATHER_PROVIDER` / `--weather-provider`: `open-meteo`
    /// (default) or `none`, which always shows the look of the local time
    /// and makes no network request.
    public var weatherProvider: WeatherProviderChoice = .openMeteo
    /// `MINDPAD_WEATHER_URL` / `--weather-url`: the provider's forecast
    /// endpoint, its query added by the server. Default
    /// `https://api.open-meteo.com/v1/forecast`; tests point it at a stub.
    public var weatherURL: URL = OpenMeteoProvider.defaultEndpoint
    /// `MINDPAD_INSTANCE` / `--instance`: this instance's id in a cluster
    /// (several `serve` behind HAProxy sharing one PostgreSQL; its `server`
    /// name in haproxy.cfg), `^[a-z0-9][a-z0-9-]{0,31}$`. Unset (default):
    /// a single instance, rooms known only in memory; set: rooms listed in
    /// the database's room directory, sessions single cluster-wide, a
    /// heartbeat (docs/architecture.md, "Cluster"). Each instance needs its
    /// own `MINDPAD_DATA_DIR`.
    public var instance: String?
    /// `MINDPAD_DRAIN_SECONDS`: when draining (SIGUSR1, `POST
    /// /api/admin/drain`), how long running races may take to end before
    /// the instance stops anyway. 1…86400, default 300.
    public var drainSeconds: Int = 300
    /// Rooms, races and the WebSocket protocol (`MINDPAD_*` variables, see
    /// `RealtimeOptions`).
    public var realtime = RealtimeOptions()
    /// `MINDPAD_EVENT_LOOP` / `--event-loop`: `poll` or `libuv`,
    /// the loop libwebsockets runs on (docs/architecture.md, "Event loop").
    public var eventLoop: EventLoopKind = .standard

    public init() {}

    /// Reads the environment variables named above.
    public init(environment: [String: String]) throws {
        self.init()
        if let v = environment["PORT"] { port = try Self.port(v) }
        host = environment["MINDPAD_HOST"].flatMap { $0.isEmpty ? nil : $0 }
        databaseURL = environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        adminToken = environment["MINDPAD_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let v = environment["MINDPAD_TRUSTED_PROXIES"] { trustedProxies = try Self.trustedProxies(v) }
        if let v = environment["MINDPAD_AUTH_FAILURE_LIMIT"] {
            guard let n = Int(v), (1...1_000_000).contains(n) else {
                throw ConfigurationError("MINDPAD_AUTH_FAILURE_LIMIT must be 1…1000000, got \(v)")
            }
            authFailureLimit = n
        }
        if let v = environment["MINDPAD_PASSWORD_ITERATIONS"] {
            guard let n = Int(v), (1_000...10_000_000).contains(n) else {
                throw ConfigurationError("MINDPAD_PASSWORD_ITERATIONS must be 1000…10000000, got \(v)")
            }
            passwordIterations = n
        }
        if let v = environment["MINDPAD_SUSPICIOUS_DRAWING_MS"] {
            suspicion.drawingMs = try Self.milliseconds(v, "MINDPAD_SUSPICIOUS_DRAWING_MS")
        }
        if let v = environment["MINDPAD_SUSPICIOUS_ANSWER_MS"] {
            suspicion.answerMs = try Self.milliseconds(v, "MINDPAD_SUSPICIOUS_ANSWER_MS")
        }
        if let v = environment["MINDPAD_WEB_ROOT"], !v.isEmpty { webRoot = v }
        if let v = environment["MINDPAD_MIGRATIONS"], !v.isEmpty { migrationsDirectory = v }
        if let v = environment["MINDPAD_DATA_DIR"], !v.isEmpty { dataDirectory = v }
        if let v = environment["MINDPAD_DB_POOL"] {
            guard let n = Int(v), (1...32).contains(n) else {
                throw ConfigurationError("MINDPAD_DB_POOL must be 1…32, got \(v)")
            }
            databasePoolSize = n
        }
        if let v = environment["MINDPAD_ANSWER_RETENTION_DAYS"], !v.isEmpty {
            guard let n = Int(v), (0...36_500).contains(n) else {
                throw ConfigurationError("MINDPAD_ANSWER_RETENTION_DAYS must be 0…36500 (0 = keep forever), got \(v)")
            }
            answerRetentionDays = n
        }
        if let v = environment["LOG_LEVEL"], !v.isEmpty { logLevel = try Self.level(v) }
        weatherPlace = try WeatherPlace(place: environment["MINDPAD_WEATHER_PLACE"], latlon: environment["MINDPAD_WEATHER_LATLON"])
        if let v = environment["MINDPAD_WEATHER_PROVIDER"], !v.isEmpty { weatherProvider = try Self.weatherProvider(v) }
        if let v = environment["MINDPAD_WEATHER_URL"], !v.isEmpty { weatherURL = try Self.weatherURL(v) }
        if let v = environment["MINDPAD_INSTANCE"], !v.isEmpty { instance = try Self.instance(v) }
        if let v = environment["MINDPAD_DRAIN_SECONDS"], !v.isEmpty {
            guard let n = Int(v), (1...86_400).contains(n) else {
                throw ConfigurationError("MINDPAD_DRAIN_SECONDS must be 1…86400 (seconds), got \(v)")
            }
            drainSeconds = n
        }
        realtime = try RealtimeOptions(environment: environment)
        if let v = environment["MINDPAD_EVENT_LOOP"] { eventLoop = try Self.eventLoop(v) }
    }

    /// `MINDPAD_TRUSTED_PROXIES`, its mistake a configuration error.
    public static func trustedProxies(_ list: String) throws -> TrustedProxies {
        do { return try TrustedProxies(parsing: list) } catch { throw ConfigurationError(error.description) }
    }

    /// An instance id as `instances.id` accepts it (migration 0012).
    public static func instance(_ text: String) throws -> String {
        let allowed = text.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
        guard (1...32).contains(text.utf8.count), allowed, text.first != "-" else {
            throw ConfigurationError("MINDPAD_INSTANCE must be 1 to 32 of a-z, 0-9 and -, not starting with - (as in haproxy.cfg), got \(text)")
        }
        return text
    }

    public static func port(_ text: String) throws -> Int {
        guard let n = Int(text), (0...65535).contains(n) else {
            throw ConfigurationError("port must be 0…65535, got \(text)")
        }
        return n
    }

    static func milliseconds(_ text: String, _ variable: String) throws -> Int {
        guard let n = Int(text), (1...60_000).contains(n) else {
            throw ConfigurationError("\(variable) must be 1…60000 (milliseconds), got \(text)")
        }
        return n
    }

    public static func level(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ConfigurationError("log level must be one of trace, debug, info, notice, warning, error, critical; got \(text)")
        }
        return level
    }

    public static func eventLoop(_ text: String) throws -> EventLoopKind {
        guard let loop = EventLoopKind(name: text) else {
            throw ConfigurationError("MINDPAD_EVENT_LOOP must be poll or libuv, got \(text)")
        }
        return loop
    }

    public static func weatherProvider(_ text: String) throws -> WeatherProviderChoice {
        guard let choice = WeatherProviderChoice(rawValue: text.lowercased()) else {
            throw ConfigurationError("weather provider must be open-meteo or none, got \(text)")
        }
        return choice
    }

    public static func weatherURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else {
            throw ConfigurationError("weather URL must be an http:// or https:// URL, got \(text)")
        }
        return url
    }

    /// The weather source this configuration names; nil for `none`.
    public func makeWeatherProvider() -> (any WeatherProvider)? {
        switch weatherProvider {
        case .openMeteo: OpenMeteoProvider(endpoint: weatherURL)
        case .none: nil
        }
    }

    /// The database URL with any password replaced by `***`, for logs.
    public var redactedDatabaseURL: String {
        guard let url = databaseURL else { return "(none)" }
        return Self.redact(url)
    }

    /// Hides passwords in a libpq URI (`user:secret@`) or key/value string
    /// (`password=secret`).
    public static func redact(_ connectionString: String) -> String {
        var s = connectionString
        if let scheme = s.range(of: "://"), let at = s[scheme.upperBound...].firstIndex(of: "@") {
            let userInfo = s[scheme.upperBound..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                s.replaceSubrange(s.index(after: colon)..<at, with: "***")
            }
        }
        for key in ["password=", "PASSWORD="] {
            var search = s.startIndex
            while let r = s.range(of: key, range: search..<s.endIndex) {
                let end = s[r.upperBound...].firstIndex(where: { $0 == " " || $0 == "&" }) ?? s.endIndex
                s.replaceSubrange(r.upperBound..<end, with: "***")
                search = s.index(r.upperBound, offsetBy: 3, limitedBy: s.endIndex) ?? s.endIndex
            }
        }
        return s
    }
}

/// Where the aquarium's weather comes from.
public enum WeatherProviderChoice: String, Sendable {
    case openMeteo = "open-meteo"
    case none
}

public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
