import Foundation
import Logging
import MindPadServer
import Testing

@Suite struct ConfigurationTests {
    @Test func defaults() throws {
        let c = try Configuration(environment: [:])
        #expect(c.port == 8080)
        #expect(c.host == nil)
        #expect(c.databaseURL == nil)
        #expect(c.adminToken == nil)
        #expect(c.webRoot == "web")
        #expect(c.migrationsDirectory == "Migrations")
        #expect(c.migrateOnStart)
        #expect(c.databasePoolSize == 2)
        #expect(c.logLevel == .info)
        #expect(c.answerRetentionDays == 30)
    }

    @Test func readsTheEnvironment() throws {
        let c = try Configuration(environment: [
            "PORT": "9001", "MINDPAD_HOST": "127.0.0.1", "DATABASE_URL": "host=/tmp dbname=x",
            "MINDPAD_ADMIN_TOKEN": "t", "MINDPAD_WEB_ROOT": "/srv/web", "MINDPAD_MIGRATIONS": "/srv/m",
            "MINDPAD_DATA_DIR": "/var/lib/mindpad", "MINDPAD_DB_POOL": "4", "LOG_LEVEL": "DEBUG",
            "MINDPAD_ANSWER_RETENTION_DAYS": "7",
        ])
        #expect(c.answerRetentionDays == 7)
        #expect(try Configuration(environment: ["MINDPAD_ANSWER_RETENTION_DAYS": "0"]).answerRetentionDays == 0)
        #expect(c.port == 9001)
        #expect(try Configuration(environment: ["MINDPAD_EVENT_LOOP": "libuv"]).eventLoop == .libuv)
        #expect(try Configuration(environment: ["MINDPAD_EVENT_LOOP": ""]).eventLoop == .standard)
        #expect(c.host == "127.0.0.1")
        #expect(c.databaseURL == "host=/tmp dbname=x")
        #expect(c.adminToken == "t")
        #expect(c.webRoot == "/srv/web")
        #expect(c.migrationsDirectory == "/srv/m")
        #expect(c.dataDirectory == "/var/lib/mindpad")
        #expect(c.databasePoolSize == 4)
        #expect(c.logLevel == .debug)
    }

    @Test func weatherDefaultsToRochesterFromOpenMeteo() throws {
        let c = try Configuration(environment: [:])
        #expect(c.weatherPlace == WeatherPlace(name: "Rochester, NY", latitude: 43.1566, longitude: -77.6088,
                                               timeZone: TimeZone(identifier: "America/New_York")))
        #expect(c.weatherProvider == .openMeteo)
        #expect(c.weatherURL.absoluteString == "https://api.open-meteo.com/v1/forecast")
        #expect(c.makeWeatherProvider()?.name == "open-meteo")
        #expect(try Configuration(environment: ["MINDPAD_WEATHER_PLACE": "rochester, ny"]).weatherPlace == .rochester)
    }

    @Test func weatherPlacesProvidersAndURLs() throws {
        let named = try Configuration(environment: [
            "MINDPAD_WEATHER_PLACE": "Harbin", "MINDPAD_WEATHER_LATLON": " 45.75, 126.65 ",
            "MINDPAD_WEATHER_PROVIDER": "none", "MINDPAD_WEATHER_URL": "http://127.0.0.1:9/forecast?models=icon",
        ])
        #expect(named.weatherPlace == WeatherPlace(name: "Harbin", latitude: 45.75, longitude: 126.65))
        #expect(named.weatherProvider == .none)
        #expect(named.makeWeatherProvider() == nil)
        #expect(named.weatherURL.absoluteString == "http://127.0.0.1:9/forecast?models=icon")
        let bare = try Configuration(environment: ["MINDPAD_WEATHER_PLACE": "-33.87,151.21"])
        #expect(bare.weatherPlace == WeatherPlace(name: "-33.87,151.21", latitude: -33.87, longitude: 151.21))
    }

    @Test(arguments: [["PORT": "http"], ["PORT": "70000"], ["MINDPAD_DB_POOL": "0"], ["LOG_LEVEL": "loud"],
                      ["MINDPAD_WEATHER_PLACE": "Paris"], ["MINDPAD_WEATHER_LATLON": "91,0"],
                      ["MINDPAD_WEATHER_LATLON": "45.7"], ["MINDPAD_WEATHER_LATLON": "north,east"],
                      ["MINDPAD_WEATHER_PROVIDER": "yahoo"], ["MINDPAD_WEATHER_URL": "ftp://example.org/x"],
                      ["MINDPAD_WEATHER_URL": "not a url"], ["MINDPAD_ANSWER_RETENTION_DAYS": "-1"],
                      ["MINDPAD_ANSWER_RETENTION_DAYS": "thirty"], ["MINDPAD_EVENT_LOOP": "epoll"], ["MINDPAD_EVENT_LOOP": "libev"]])
    func refusesNonsense(environment: [String: String]) {
        #expect(throws: ConfigurationError.self) { try Configuration(environment: environment) }
    }

    @Test func trustedProxiesComeFromTheEnvironment() throws {
        #expect(try Configuration(environment: [:]).trustedProxies.isEmpty)
        let c = try Configuration(environment: ["MINDPAD_TRUSTED_PROXIES": "10.0.0.0/8, ::1"])
        #expect(c.trustedProxies.contains("10.2.3.4"))
        #expect(c.trustedProxies.contains("::1"))
        #expect(!c.trustedProxies.contains("11.0.0.1"))
        #expect(throws: ConfigurationError.self) { try Configuration(environment: ["MINDPAD_TRUSTED_PROXIES": "proxy.local"]) }
    }

    @Test func theAuthFailureLimitIsBounded() throws {
        #expect(try Configuration(environment: [:]).authFailureLimit == 5)
        #expect(try Configuration(environment: ["MINDPAD_AUTH_FAILURE_LIMIT": "50"]).authFailureLimit == 50)
        #expect(throws: ConfigurationError.self) { try Configuration(environment: ["MINDPAD_AUTH_FAILURE_LIMIT": "0"]) }
        // Teachers' password rounds: 600,000 unless told; never below 1,000.
        #expect(try Configuration(environment: [:]).passwordIterations == 600_000)
        #expect(try Configuration(environment: ["MINDPAD_PASSWORD_ITERATIONS": "1000"]).passwordIterations == 1_000)
        for bad in ["999", "0", "-5", "many", "10000001"] {
            #expect(throws: ConfigurationError.self) { try Configuration(environment: ["MINDPAD_PASSWORD_ITERATIONS": bad]) }
        }
    }

    @Test func anEmptyAdminTokenIsNoToken() throws {
        #expect(try Configuration(environment: ["MINDPAD_ADMIN_TOKEN": ""]).adminToken == nil)
    }

    @Test(arguments: [
        ("postgresql://u:secret@h:5/db", "postgresql://u:***@h:5/db"),
        ("postgresql://u@h/db?password=secret&sslmode=require", "postgresql://u@h/db?password=***&sslmode=require"),
        ("host=h password=secret dbname=d", "host=h password=*** dbname=d"),
        ("postgresql://u@h/db", "postgresql://u@h/db"),
    ])
    func redactsPasswords(input: String, expected: String) {
        #expect(Configuration.redact(input) == expected)
        #expect(!Configuration.redact(input).contains("secret"))
    }
}

/// `MINDPAD_INSTANCE` and `MINDPAD_DRAIN_SECONDS` (cluster mode).
@Suite struct ClusterConfigurationTests {
    @Test func unsetIsASingleInstance() throws {
        let c = try Configuration(environment: ["MINDPAD_INSTANCE": ""])
        #expect(c.instance == nil)
        #expect(c.drainSeconds == 300)
    }

    @Test func readsTheInstanceAndTheDrainBound() throws {
        let c = try Configuration(environment: ["MINDPAD_INSTANCE": "i2", "MINDPAD_DRAIN_SECONDS": "30"])
        #expect(c.instance == "i2")
        #expect(c.drainSeconds == 30)
        #expect(try Configuration.instance("eu-west-1") == "eu-west-1")
        #expect(try Configuration.instance(String(repeating: "a", count: 32)).count == 32)
    }

    @Test(arguments: ["I1", "-i1", "i_1", "i 1", "i1;drop", "é1", String(repeating: "a", count: 33)])
    func aMalformedInstanceIsRefusedWithItsRule(_ id: String) {
        #expect {
            try Configuration(environment: ["MINDPAD_INSTANCE": id])
        } throws: { error in
            "\(error)".contains("MINDPAD_INSTANCE must be 1 to 32 of a-z, 0-9 and -")
        }
    }

    @Test(arguments: ["0", "-5", "soon", "86401"])
    func aBadDrainBoundIsRefused(_ value: String) {
        #expect(throws: ConfigurationError.self) { try Configuration(environment: ["MINDPAD_DRAIN_SECONDS": value]) }
    }
}
