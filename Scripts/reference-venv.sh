# Sourced by Scripts/reference-render and Scripts/bench-vector from the package root: installs what
# maplibre-native (PyPI mapli 0.4.1) needs, once, and sets $venv to its Python venv.
# EGL surfaceless needs Debian's libegl1, libegl-mesa0 and libgl1-mesa-dri; the glyphs for its text are
# made by Scripts/sdf_glyphs.py (freetype-py, numpy, scipy).
venv=.build/reference-venv
python_packages=(mapli==0.4.1 freetype-py==2.5.1 numpy==2.4.6 scipy==1.17.1)

missing=()
for package in libegl1 libegl-mesa0 libgl1-mesa-dri fontconfig; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "${missing[@]}"
fi
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/pip" freeze 2>/dev/null | grep -qx "mapli==0.4.1"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "${python_packages[@]}"
fi
