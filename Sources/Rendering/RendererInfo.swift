import CCairo
import JSON

/// What drew a map, for the layout JSON: identical input gives identical bytes only with the same cairo and
/// pango and the same font files, so a mismatch between two machines can be explained from this block.
public struct RendererInfo: Hashable, Sendable {
  /// One family of a style's font list and the file fontconfig picks for it (nil when it picks none).
  public struct FontMatch: Hashable, Sendable {
    public var family: String
    public var file: String?
  }

  /// `cairo_version_string()`.
  public var cairo: String
  /// `pango_version_string()`.
  public var pango: String
  /// Each family of the font list, in order.
  public var fonts: [FontMatch]

  /// The running libraries, and fontconfig's match for each family of `fontFamily` (a Pango family list,
  /// as in `Style.fontFamily`).
  public static func current(fontFamily: String) -> RendererInfo {
    _ = TextLayout.fontOptions  // fontconfig's configuration complete before it is asked
    let families = fontFamily.split(separator: ",").map { String($0.drop { $0 == " " }) }.filter {
      !$0.isEmpty
    }
    return RendererInfo(
      cairo: String(cString: cairo_version_string()), pango: String(cString: pango_version_string()),
      fonts: families.map { FontMatch(family: $0, file: matchedFile($0)) })
  }

  /// As written in the layout JSON.
  public var json: JSONValue {
    .object([
      .init("cairo", .string(cairo)),
      .init("pango", .string(pango)),
      .init(
        "fonts",
        .array(
          fonts.map {
            .object([
              .init("family", .string($0.family)), .init("file", $0.file.map { .string($0) } ?? .null),
            ])
          })),
    ])
  }

  /// The file fontconfig's best match for `family` comes from, as Pango would ask for it (substitutions
  /// and defaults applied).
  private static func matchedFile(_ family: String) -> String? {
    guard
      let pattern = family.withCString({
        FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
      })
    else { return nil }
    defer { FcPatternDestroy(pattern) }
    FcConfigSubstitute(nil, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
    defer { FcPatternDestroy(match) }
    var file: UnsafeMutablePointer<FcChar8>?
    guard FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file else { return nil }
    return String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
  }
}
