import Testing
@testable import CatalogLogic
