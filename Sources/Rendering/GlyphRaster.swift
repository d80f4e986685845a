import CCairo
import Foundation

/// How glyphs are rasterized: the same on every machine, whatever its fontconfig says.
///
/// Cairo applies a context's font options only where fontconfig's configuration left a setting unset, and
/// a machine's configuration may set them (desktops set hinting and subpixel order; a `FONTCONFIG_FILE`
/// asking for full hinting, RGB subpixels and no antialiasing changed mymap's glyphs): left alone, the
/// same map would come out differently on such a machine, and a golden recorded on one would fail on
/// another. So a last rule is added to the process's fontconfig configuration that assigns these settings
/// to every font it matches (colour fonts excepted, see `fontconfigRule`).
struct GlyphRaster: Equatable {
  enum Hinting: String {
    case none = "hintnone"
    case slight = "hintslight"
    case full = "hintfull"
  }
  enum Antialias { case none, gray, subpixel }

  var hinting: Hinting = .none
  var antialias: Antialias = .gray

  /// Hinting off, greyscale antialiasing (identical metrics at every scale), unless
  /// `$MYMAP_FONT_RASTER` (`hint=slight|full`, `antialias=none|subpixel`, comma-separated) says otherwise:
  /// the image comparison's tests use it to stand in for another FreeType or hinting build.
  static let current: GlyphRaster = {
    var raster = GlyphRaster()
    for setting in (ProcessInfo.processInfo.environment["MYMAP_FONT_RASTER"] ?? "").split(separator: ",") {
      switch setting {
      case "hint=slight": raster.hinting = .slight
      case "hint=full": raster.hinting = .full
      case "antialias=none": raster.antialias = .none
      case "antialias=subpixel": raster.antialias = .subpixel
      default: break
      }
    }
    raster.installInFontconfig()
    return raster
  }()

  /// The cairo font options that say the same (kept for the measuring contexts, which ask cairo directly).
  func makeFontOptions() -> OpaquePointer {
    let options = cairo_font_options_create()!
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    switch hinting {
    case .none: cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    case .slight: cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
    case .full: cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_FULL)
    }
    switch antialias {
    case .none: cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_NONE)
    case .gray: cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    case .subpixel:
      cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_SUBPIXEL)
      cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_RGB)
    }
    return options
  }

  /// The fontconfig rule: applied to every matched font, after every rule of the machine's configuration.
  var fontconfigRule: String {
    func assign(_ name: String, _ value: String) -> String {
      "<edit name=\"\(name)\" mode=\"assign\">\(value)</edit>"
    }
    let edits = [
      assign("hinting", hinting == .none ? "<bool>false</bool>" : "<bool>true</bool>"),
      assign("hintstyle", "<const>\(hinting.rawValue)</const>"),
      assign("autohint", "<bool>false</bool>"),
      assign("antialias", antialias == .none ? "<bool>false</bool>" : "<bool>true</bool>"),
      assign("rgba", antialias == .subpixel ? "<const>rgb</const>" : "<const>none</const>"),
      assign("lcdfilter", antialias == .subpixel ? "<const>lcddefault</const>" : "<const>lcdnone</const>"),
    ]
    // Not for colour fonts (bitmap emoji): these settings would stop cairo drawing their glyphs at all.
    return "<?xml version=\"1.0\"?><fontconfig><match target=\"font\">"
      + "<test name=\"color\" compare=\"eq\"><bool>false</bool></test>" + edits.joined()
      + "</match></fontconfig>"
  }

  private func installInFontconfig() {
    guard let config = FontSetup.currentConfiguration() else { return }
    _ = fontconfigRule.withCString {
      FcConfigParseAndLoadFromMemory(
        config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), FcTrue)
    }
  }
}
