/// A SQL statement whose interpolated values become `$n` binds.
///
/// `"SELECT * FROM players WHERE name = \(name)"` produces the text
/// `SELECT * FROM players WHERE name = $1` and the bind `name`, so a value a
/// player typed can never become SQL. Literal SQL can only come from string
/// literals in source code.
public struct SQLQuery: Sendable, Equatable, ExpressibleByStringInterpolation {
    public private(set) var sql: String
    public private(set) var binds: [String?]

    public init(stringLiteral value: String) {
        sql = value
        binds = []
    }

    public init(stringInterpolation: StringInterpolation) {
        sql = stringInterpolation.sql
        binds = stringInterpolation.binds
    }

    /// Builds a query from SQL text and already separated binds.
    public init(unsafeSQL sql: String, binds: [String?] = []) {
        self.sql = sql
        self.binds = binds
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds: [String?] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// Every value is sent in PostgreSQL's text format; cast in SQL
        /// (`\(n)::bigint`) where the server cannot infer the type.
        public mutating func appendInterpolation(_ value: some SQLBindable) {
            binds.append(value.sqlText)
            sql += "$\(binds.count)"
        }

        public mutating func appendInterpolation(_ value: (some SQLBindable)?) {
            binds.append(value?.sqlText)
            sql += "$\(binds.count)"
        }

        /// SQL text chosen among literals of the source code
        /// (`\(literal: waiting ? "FOR UPDATE" : "FOR UPDATE SKIP LOCKED")`):
        /// a `StaticString` is fixed at compile time, so no value can become SQL.
        public mutating func appendInterpolation(literal: StaticString) {
            sql += literal.description
        }
    }
}

/// A value that can be bound as a query parameter in text format.
public protocol SQLBindable: Sendable {
    var sqlText: String { get }
}

extension String: SQLBindable { public var sqlText: String { self } }
extension Substring: SQLBindable { public var sqlText: String { String(self) } }
extension Int: SQLBindable { public var sqlText: String { String(self) } }
extension Int32: SQLBindable { public var sqlText: String { String(self) } }
extension Int64: SQLBindable { public var sqlText: String { String(self) } }
extension UInt64: SQLBindable { public var sqlText: String { String(self) } }
extension Bool: SQLBindable { public var sqlText: String { self ? "t" : "f" } }
extension Double: SQLBindable {
    public var sqlText: String { self.isFinite ? "\(self)" : (self.isNaN ? "NaN" : (self > 0 ? "Infinity" : "-Infinity")) }
}
