/// Placeholder until the block is written.
public enum AdaptiveTabsLogic {}
