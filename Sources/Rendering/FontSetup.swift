import CCairo
import Foundation
import Locking

/// The machine's fonts made ready before a render measures its first text.
///
/// Fontconfig's start (its configuration's XML files read, the font caches mapped) takes a few
/// milliseconds of a render that takes a few tens; a command line can have it done on another core while
/// it reads the places, the style and the tile source.
public enum FontSetup {
  /// Whether `startLoading` asked for fontconfig's configuration to be loaded here rather than by `FcInit`.
  private static let loadsOwnConfiguration = Locked(false)

  /// Loads fontconfig's configuration and font list on a thread of its own; the first text measured waits
  /// for what is left of it. Call it at most once, first thing, before anything in the process has used
  /// fontconfig (a program's start, not a library's): the configuration it loads becomes fontconfig's
  /// current one.
  public static func startLoading() {
    loadsOwnConfiguration.withLock { $0 = true }
    Thread { _ = TextLayout.fontOptions }.start()
  }

  /// Fontconfig's current configuration, made by the first caller (`GlyphRaster.current`, once).
  ///
  /// After `startLoading`, it is loaded the way `FcInit` loads it (`FONTCONFIG_FILE`, else fonts.conf and
  /// everything that includes, then the font caches) without also parsing every template under
  /// conf.avail for its description, a third of `FcInit`'s time that only `fc-conflist` needs. The fonts
  /// matched are the same. A configuration that fails to load or finds no fonts is left to `FcInit` and
  /// its fallback.
  static func currentConfiguration() -> OpaquePointer? {
    if loadsOwnConfiguration.withLock({ $0 }), let config = loadConfiguration() {
      defer { FcConfigDestroy(config) }  // FcConfigSetCurrent holds a reference of its own
      if FcConfigSetCurrent(config) != 0 { return FcConfigGetCurrent() }
    }
    return FcConfigGetCurrent()
  }

  /// The machine's configuration with its fonts, owned by the caller; nil when it fails to load or finds no
  /// fonts.
  static func loadConfiguration() -> OpaquePointer? {
    guard let config = FcConfigCreate() else { return nil }
    guard FcConfigParseAndLoad(config, nil, FcTrue) != 0, FcConfigBuildFonts(config) != 0,
      let fonts = FcConfigGetFonts(config, FcSetSystem), fonts.pointee.nfont > 0
    else {
      FcConfigDestroy(config)
      return nil
    }
    return config
  }
}
