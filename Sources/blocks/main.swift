import BlocksKit
BlocksCLI.main()
