import CCurl
import Foundation
import Locking

/// One GET through libcurl: the C strings it sends, the C record `ccurl_perform` fills, and what that
/// record means as an `HTTPResponse` or an `HTTPTransportError`.
///
/// `@unchecked Sendable`: one thread performs it, then hands the record to the one that reads the response;
/// the only other access, `cancel()`, is atomic in C.
final class CurlExchange: @unchecked Sendable {
  private let record: UnsafeMutablePointer<ccurl_exchange>
  /// Set under a lock when `perform` ends. The continuation that wakes the reader already orders the
  /// hand-over, but inside the concurrency runtime, where ThreadSanitizer cannot see it; the lock shows it.
  private let performed = Locked(false)
  private let url: UnsafeMutablePointer<CChar>
  private let lines: [UnsafeMutablePointer<CChar>]
  private let linePointers: UnsafeMutablePointer<UnsafePointer<CChar>?>

  init(url: String, headers: [String: String], limit: Int, timeout: Double, deadline: Double) {
    self.url = strdup(url)
    // A header a server could have given a line break (an ETag it sent) would start a header of its own.
    let safe = headers.sorted { $0.key < $1.key }.filter { name, value in
      !(name + value).unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" } && !name.isEmpty
    }
    lines = safe.map { strdup("\($0.key): \($0.value)") }
    linePointers = .allocate(capacity: max(1, lines.count))
    for (index, line) in lines.enumerated() { linePointers[index] = UnsafePointer(line) }
    record = .allocate(capacity: 1)
    record.initialize(to: ccurl_exchange())
    record.pointee.url = UnsafePointer(self.url)
    record.pointee.headers = UnsafePointer(linePointers)
    record.pointee.header_count = Int32(lines.count)
    record.pointee.body_limit = max(0, limit)
    record.pointee.header_limit = CurlTransport.maximumHeaderBytes
    // Bounded, so that C converts them to milliseconds safely whatever a caller passes (NaN included).
    record.pointee.idle_timeout_seconds = Self.seconds(timeout)
    record.pointee.deadline_seconds = Self.seconds(deadline)
  }

  /// `value` seconds within 1 ms … 1 day (a day for NaN).
  static func seconds(_ value: Double) -> Double {
    value.isNaN ? 86_400 : min(max(value, 0.001), 86_400)
  }

  deinit {
    ccurl_exchange_release(record)
    record.deallocate()
    linePointers.deallocate()
    for line in lines { free(line) }
    free(url)
  }

  func perform(_ library: CurlLibrary, _ handle: UnsafeMutableRawPointer) {
    ccurl_perform(library.api, handle, record)
    performed.withLock { $0 = true }
  }

  func cancel() {
    ccurl_cancel(record)
  }

  /// The response, or why there is none.
  func response(limit: Int) throws(HTTPTransportError) -> HTTPResponse {
    guard performed.withLock({ $0 }) else {
      throw .connectionFailed(.other("libcurl did not run", transient: false))
    }
    let ended = record.pointee
    let announced = ended.announced >= 0 ? Int(clamping: ended.announced) : nil
    switch ended.outcome {
    case CCURL_DONE:
      break
    case CCURL_TOO_LARGE: throw .tooLarge(announced: nil, limit: limit)
    case CCURL_TOO_LARGE_ANNOUNCED: throw .tooLarge(announced: announced, limit: limit)
    case CCURL_TIMED_OUT: throw .timedOut
    case CCURL_DEADLINE: throw .deadlinePassed
    case CCURL_CANCELLED: throw .cancelled
    case CCURL_HEADERS_TOO_LARGE: throw .connectionFailed(.badResponse)
    case CCURL_FAILED:
      let missing = announced.map { max(0, $0 - Int(clamping: ended.received_on_wire)) }
      throw Self.transportError(curlCode: Int(ended.curl_code), text: errorText(), bytesMissing: missing)
    default: throw .connectionFailed(.other("out of memory", transient: false))
    }
    let headerText =
      ended.header_text.map {
        String(
          decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer($0), count: ended.header_size),
          as: UTF8.self)
      } ?? ""
    var body = Data()
    if let bytes = ended.body, ended.body_size > 0 {
      // The body changes hands without a copy: Data frees it.
      body = Data(bytesNoCopy: bytes, count: ended.body_size, deallocator: .free)
      record.pointee.body = nil
      record.pointee.body_size = 0
      record.pointee.body_capacity = 0
    }
    return HTTPResponse(
      status: ended.status, headers: Self.headerFields(headerText), body: body, announcedLength: announced)
  }

  private func errorText() -> String {
    withUnsafeBytes(of: record.pointee.error_text) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }

  /// Header fields of one response's header block (its status line left out); a name that comes twice
  /// has its values joined with commas, as HTTP allows.
  static func headerFields(_ text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }).dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces)
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty else { continue }
      if let earlier = fields[name] { fields[name] = earlier + ", " + value } else { fields[name] = value }
    }
    return fields
  }

  /// What a libcurl error code means for the request (curl/curl.h numbers them; they never change).
  static func transportError(curlCode: Int, text: String, bytesMissing: Int?) -> HTTPTransportError {
    switch curlCode {
    case 6: return .unreachable(.unknownHost)
    case 7: return .unreachable(.cannotConnectToHost)
    case 18: return .truncated(bytesMissing: bytesMissing)
    case 28: return .timedOut
    case 8, 52: return .connectionFailed(.badResponse)
    case 55, 56: return .connectionFailed(.dropped)
    default:
      let words = text.isEmpty ? "libcurl error \(curlCode)" : text
      return .connectionFailed(.other(words, transient: false))
    }
  }
}
