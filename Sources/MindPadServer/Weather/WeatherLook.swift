import Foundation

/// How the aquarium looks: what the web client paints behind the fish.
public enum WeatherLook: String, Sendable, CaseIterable {
    case sunny, cloudy, rain, snow, night

    /// The look for a WMO weather interpretation code (WMO 4677, as
    /// Open-Meteo reports it in `weather_code`) by day or by night; nil for
    /// a code outside that table (an answer the server cannot trust).
    /// Precipitation shows by night too (a rainy night looks rainy);
    /// only clear and cloudy skies turn into `night` after dark.
    ///
    /// | codes | meaning | look |
    /// |---|---|---|
    /// | 0, 1 | clear sky, mainly clear | sunny |
    /// | 2, 3, 45, 48 | partly cloudy, overcast, fog, rime fog | cloudy |
    /// | 51–57, 61–67, 80–82, 95, 96, 99 | drizzle, rain, showers, thunderstorms | rain |
    /// | 71, 73, 75, 77, 85, 86 | snow fall, snow grains, snow showers | snow |
    public init?(wmoCode code: Int, isDay: Bool) {
        switch code {
        case 0, 1: self = isDay ? .sunny : .night
        case 2, 3, 45, 48: self = isDay ? .cloudy : .night
        case 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 80, 81, 82, 95, 96, 99: self = .rain
        case 71, 73, 75, 77, 85, 86: self = .snow
        default: return nil
        }
    }

    /// The look without a weather report: `night` from 19:00 to 06:00 in
    /// `timeZone` (the weather place's: `WeatherPlace.timeZone`), else `sunny`.
    public static func byClock(_ date: Date, in timeZone: TimeZone) -> WeatherLook {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let hour = calendar.component(.hour, from: date)
        return hour >= 19 || hour < 6 ? .night : .sunny
    }
}
