import CCairo
import XCTest

@testable import Rendering

/// The configuration `FontSetup` loads itself matches every font as the one `FcInit` loads.
final class FontSetupTests: XCTestCase {
  func testTheOwnConfigurationMatchesTheFontsFcInitWould() throws {
    let own = try XCTUnwrap(FontSetup.loadConfiguration())
    defer { FcConfigDestroy(own) }
    let standard = try XCTUnwrap(FcInitLoadConfigAndFonts())
    defer { FcConfigDestroy(standard) }
    // Families mymap's styles name, generic names the machine's rules alias, scripts that need fallbacks.
    let patterns = [
      "DejaVu Sans", "DejaVu Sans:bold", "Noto Sans CJK JP", "sans-serif", "serif:italic", "monospace",
      "Helvetica", "Arial:bold", "emoji", "Noto Sans:lang=ar", "Nonexistent Family 12",
    ]
    for pattern in patterns {
      let ownFonts = sortedFonts(pattern, config: own)
      XCTAssertGreaterThan(ownFonts.count, 0, pattern)
      XCTAssertEqual(ownFonts, sortedFonts(pattern, config: standard), pattern)
    }
  }

  /// Each font fontconfig would try for `pattern`, best first, as the pattern Pango would be given
  /// (file, index and the settings rules assign).
  private func sortedFonts(_ pattern: String, config: OpaquePointer) -> [String] {
    guard
      let parsed = pattern.withCString({
        FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
      })
    else { return [] }
    defer { FcPatternDestroy(parsed) }
    FcConfigSubstitute(config, parsed, FcMatchPattern)
    FcDefaultSubstitute(parsed)
    var result = FcResultNoMatch
    guard let set = FcFontSort(config, parsed, FcTrue, nil, &result) else { return [] }
    defer { FcFontSetDestroy(set) }
    var fonts: [String] = []
    for index in 0..<Int(set.pointee.nfont) {
      guard let prepared = FcFontRenderPrepare(config, parsed, set.pointee.fonts[index]) else { continue }
      defer { FcPatternDestroy(prepared) }
      guard let name = FcNameUnparse(prepared) else { continue }
      fonts.append(String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)))
      free(name)
    }
    return fonts
  }
}
