import ArgumentParser
import Foundation
import MindPadServer

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the game: HTTP, WebSocket and the web client.")

    @OptionGroup var common: CommonOptions

    @Option(help: "Port to listen on; 0 picks a free one (env PORT; default 8080).")
    var port: Int?

    @Option(help: "Address to bind (env MINDPAD_HOST; default: every interface).")
    var host: String?

    @Option(help: "Folder of static web files (env MINDPAD_WEB_ROOT; default ./web).")
    var webRoot: String?

    @Option(help: "Folder for durable local state (env MINDPAD_DATA_DIR; default ./.data).")
    var dataDir: String?

    @Option(help: "Database worker threads (env MINDPAD_DB_POOL; default 2).")
    var dbPool: Int?

    @Option(help: "Whose weather the aquarium shows: a name with --weather-latlon, or \"lat,lon\" (env MINDPAD_WEATHER_PLACE; default Rochester, NY).")
    var weatherPlace: String?

    @Option(help: "The weather place's \"latitude,longitude\" in degrees (env MINDPAD_WEATHER_LATLON).")
    var weatherLatlon: String?

    @Option(help: "open-meteo, or none for the look of the local time without any network request (env MINDPAD_WEATHER_PROVIDER; default open-meteo).")
    var weatherProvider: String?

    @Option(help: "The weather provider's forecast endpoint (env MINDPAD_WEATHER_URL; default https://api.open-meteo.com/v1/forecast).")
    var weatherURL: String?

    @Option(help: "This instance's id in a cluster, as its server name in haproxy.cfg (env MINDPAD_INSTANCE; default: a single instance).")
    var instance: String?

    @Option(help: "The loop libwebsockets runs on: poll or libuv (env MINDPAD_EVENT_LOOP; default libuv).")
    var eventLoop: String?

    @Flag(help: "Do not apply migrations at start.")
    var noMigrate = false

    func run() throws {
        var config = try common.configuration()
        if let port { config.port = try Configuration.port(String(port)) }
        if let host { config.host = host }
        if let webRoot { config.webRoot = webRoot }
        if let dataDir { config.dataDirectory = dataDir }
        if let dbPool { config.databasePoolSize = dbPool }
        if let instance { config.instance = try Configuration.instance(instance) }
        if noMigrate { config.migrateOnStart = false }
        if let eventLoop { config.eventLoop = try Configuration.eventLoop(eventLoop) }
        if weatherPlace != nil || weatherLatlon != nil {
            let env = ProcessInfo.processInfo.environment
            config.weatherPlace = try WeatherPlace(place: weatherPlace ?? env["MINDPAD_WEATHER_PLACE"],
                                                   latlon: weatherLatlon ?? env["MINDPAD_WEATHER_LATLON"])
        }
        if let weatherProvider { config.weatherProvider = try Configuration.weatherProvider(weatherProvider) }
        if let weatherURL { config.weatherURL = try Configuration.weatherURL(weatherURL) }
        bootstrapLogging(config.logLevel)
        let app = MindPadApplication(configuration: config)
        _ = try app.start()
        app.stopOnTerminationSignals()
        do {
            try app.wait()
        } catch let incomplete as DrainIncomplete {
            // Logged loudly already; a supervisor sees the status.
            FileHandle.standardError.write(Data("mindpad: \(incomplete)\n".utf8))
            throw ExitCode(DrainIncomplete.exitCode)
        }
    }
}
