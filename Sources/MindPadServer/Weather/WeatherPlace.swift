import Foundation

/// Where the aquarium's weather comes from: a name to show, the
/// coordinates a provider is asked about, and the place's clock (what the
/// look falls back to when there is no report: night is the place's night,
/// not the server's).
public struct WeatherPlace: Sendable, Equatable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var timeZone: TimeZone

    /// `timeZone` defaults to the zone the longitude lies in (whole hours
    /// from UTC): close to the sun, which is what day and night follow.
    public init(name: String, latitude: Double, longitude: Double, timeZone: TimeZone? = nil) {
        (self.name, self.latitude, self.longitude) = (name, latitude, longitude)
        self.timeZone = timeZone ?? Self.solarZone(longitude: longitude)
    }

    /// The default place: Rochester, NY (city hall), on New York's clock
    /// (UTC−5 if the system has no time-zone data).
    public static let rochester = WeatherPlace(name: "Rochester, NY", latitude: 43.1566, longitude: -77.6088,
                                               timeZone: TimeZone(identifier: "America/New_York"))

    /// UTC plus the longitude's whole hours (15° an hour).
    static func solarZone(longitude: Double) -> TimeZone {
        TimeZone(secondsFromGMT: Int((longitude / 15).rounded()) * 3600) ?? TimeZone(secondsFromGMT: 0)!
    }

    /// The place `MINDPAD_WEATHER_PLACE` and `MINDPAD_WEATHER_LATLON`
    /// describe: nothing (Rochester, NY); "lat,lon" alone; or any name with
    /// its "lat,lon" in `latlon`. A name the server has no coordinates for
    /// is a configuration error, so a typo never silently shows another
    /// town's weather.
    public init(place: String?, latlon: String?) throws(ConfigurationError) {
        let place = place?.trimmingCharacters(in: .whitespaces).nilIfEmpty
        let latlon = latlon?.trimmingCharacters(in: .whitespaces).nilIfEmpty
        if let latlon {
            let (lat, lon) = try Self.coordinates(latlon, variable: "MINDPAD_WEATHER_LATLON")
            self.init(name: place ?? latlon, latitude: lat, longitude: lon)
        } else if let place, place.lowercased() != Self.rochester.name.lowercased() {
            guard let (lat, lon) = try? Self.coordinates(place, variable: "MINDPAD_WEATHER_PLACE") else {
                throw ConfigurationError("MINDPAD_WEATHER_PLACE is \"\(place)\": give its coordinates in MINDPAD_WEATHER_LATLON "
                    + "(\"43.16,-77.61\"), or set MINDPAD_WEATHER_PLACE to \"lat,lon\"")
            }
            self.init(name: place, latitude: lat, longitude: lon)
        } else {
            self = .rochester
        }
    }

    /// "lat,lon" in decimal degrees, latitude −90…90, longitude −180…180.
    static func coordinates(_ text: String, variable: String) throws(ConfigurationError) -> (Double, Double) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], lat.isFinite, lon.isFinite,
              (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw ConfigurationError("\(variable) must be \"latitude,longitude\" in degrees (−90…90, −180…180), got \(text)")
        }
        return (lat, lon)
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
