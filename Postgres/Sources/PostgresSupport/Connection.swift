import CLibPQ
import Foundation

/// An error the server reported: its SQLSTATE and message (libpq's PG_DIAG_ fields).
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public let sqlState: String
    public let message: String
    public let detail: String?
    public var description: String { "\(sqlState): \(message)" + (detail.map { " (\($0))" } ?? "") }
    public init(sqlState: String, message: String, detail: String?) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
    }
}

/// One libpq connection, for tests and benchmarks: text in, text out.
///
/// ```swift
/// let db = try Connection("host=/tmp/dir port=5432 dbname=postgres user=postgres")
/// try db.rows("SELECT fold($1)", ["Crème"])   // [["creme"]]
/// ```
public final class Connection: @unchecked Sendable {
    let handle: OpaquePointer
    /// NOTICE and WARNING messages the server sent, oldest first.
    public private(set) var notices: [String] = []

    public init(_ conninfo: String) throws {
        guard let handle = PQconnectdb(conninfo) else { throw ClusterError("PQconnectdb returned NULL") }
        self.handle = handle
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            throw ClusterError("cannot connect (\(conninfo)): \(message)")
        }
        PQsetNoticeReceiver(handle, { context, result in
            guard let context, let result else { return }
            let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
            connection.notices.append(String(cString: PQresultErrorMessage(result)))
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { PQfinish(handle) }

    /// The server process's id (for pg_cancel_backend).
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// Runs `sql` with text parameters (`nil` is NULL) and returns every row, each value as text
    /// (`nil` for NULL). Several statements without parameters may be given at once.
    @discardableResult
    public func rows(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(handle, sql)
        } else {
            var copies = parameters.map { $0.map { strdup($0) } ?? nil }
            defer { for copy in copies { free(copy) } }
            result = copies.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                    PQexecParams(handle, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
                }
            }
        }
        guard let result else { throw ClusterError("libpq: \(String(cString: PQerrorMessage(handle)))") }
        defer { PQclear(result) }
        try check(result)
        var rows: [[String?]] = []
        let columns = PQnfields(result)
        for row in 0..<PQntuples(result) {
            var values: [String?] = []
            for column in 0..<columns {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(nil)
                } else {
                    let length = Int(PQgetlength(result, row, column))
                    values.append(String(decoding: UnsafeRawBufferPointer(start: PQgetvalue(result, row, column), count: length), as: UTF8.self))
                }
            }
            rows.append(values)
        }
        return rows
    }

    /// The first column of the first row.
    public func value(_ sql: String, _ parameters: [String?] = []) throws -> String? {
        try rows(sql, parameters).first?.first ?? nil
    }

    /// Runs statements that return nothing worth reading.
    public func execute(_ sql: String, _ parameters: [String?] = []) throws {
        try rows(sql, parameters)
    }

    /// `COPY table (columns) FROM STDIN`, one line per row of tab-separated text fields.
    public func copyIn(_ copySQL: String, rows: some Sequence<[String]>) throws {
        guard let start = PQexec(handle, copySQL) else { throw ClusterError("libpq: \(String(cString: PQerrorMessage(handle)))") }
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            defer { PQclear(start) }
            try check(start)
            throw ClusterError("COPY did not start")
        }
        PQclear(start)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        func flush() throws {
            let rc = buffer.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
            }
            guard rc == 1 else { throw ClusterError("PQputCopyData: \(String(cString: PQerrorMessage(handle)))") }
            buffer.removeAll(keepingCapacity: true)
        }
        for row in rows {
            for (i, field) in row.enumerated() {
                if i > 0 { buffer.append(0x09) }
                for byte in field.utf8 {
                    switch byte {
                    case 0x5C: buffer += [0x5C, 0x5C]
                    case 0x09: buffer += [0x5C, UInt8(ascii: "t")]
                    case 0x0A: buffer += [0x5C, UInt8(ascii: "n")]
                    case 0x0D: buffer += [0x5C, UInt8(ascii: "r")]
                    default: buffer.append(byte)
                    }
                }
            }
            buffer.append(0x0A)
            if buffer.count >= 1 << 20 { try flush() }
        }
        try flush()
        guard PQputCopyEnd(handle, nil) == 1 else { throw ClusterError("PQputCopyEnd: \(String(cString: PQerrorMessage(handle)))") }
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            try check(result)
        }
    }

    private func check(_ result: OpaquePointer) throws {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN, PGRES_COPY_OUT:
            return
        default:
            func field(_ code: Character) -> String? {
                PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
            }
            throw PostgresError(sqlState: field("C") ?? "?????",
                                message: field("M") ?? String(cString: PQresultErrorMessage(result)),
                                detail: field("D"))
        }
    }
}
