# The Homebrew formula for blocks. This repository is its own tap:
#
#   brew tap blocks/blocks URL-OF-THIS-REPOSITORY
#   brew install --HEAD blocks
#
# builds main with Xcode's Swift; macOS supplies libcurl, libarchive, zlib, SQLite and
# CommonCrypto, so the formula depends on nothing else. No URL is written here: the head
# build fetches the repository the tap was cloned from. A release adds a stable `url` and
# `sha256` below, filled by Scripts/release-formula from a `git archive` of its tag.
class Blocks < Formula
  desc "Command-line registry of SwiftUI blocks you copy into your app and own"
  license "MIT"

  REPOSITORY = begin
    origin = Utils.popen_read("git", "-C", __dir__, "config", "--get", "remote.origin.url").chomp
    origin.empty? ? "file://#{File.expand_path("..", __dir__)}" : origin
  end.freeze

  # The homepage is the repository's web page only when the tap was cloned over https;
  # an ssh or file:// origin is no web page, so the formula then names none.
  homepage REPOSITORY.delete_suffix(".git") if REPOSITORY.match?(%r{\Ahttps?://})
  head REPOSITORY, branch: "main", using: :git
  # release: Scripts/release-formula keeps the stable url and sha256 on the lines below.

  depends_on xcode: ["16.0", :build]
  depends_on :macos

  def install
    # Homebrew builds in a sandbox of its own, inside which SwiftPM cannot start its own.
    system "swift", "build", "-c", "release", "--disable-sandbox"
    bin.install ".build/release/blocks"
  end

  test do
    assert_match(/^blocks \d+\.\d+\.\d+/, shell_output("#{bin}/blocks --version"))
    assert_match "scrolling-strip", shell_output("#{bin}/blocks search tabs")
  end
end
