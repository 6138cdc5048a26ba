// The screenshot set `npm run preview -- --shots docs` writes and docs/views.md shows: every view at 400 and
// 960 px, light and dark. test/docs.test.ts holds the page to this list.

export const SHOT_VIEWS = ['board', 'evidence', 'failures', 'chart', 'heatmap'] as const;
export type ShotView = (typeof SHOT_VIEWS)[number];
export const SHOT_WIDTHS = [400, 960] as const;
export const SHOT_THEMES = ['light', 'dark'] as const;

export interface Shot {
  file: string;
  view: ShotView;
  width: (typeof SHOT_WIDTHS)[number];
  theme: (typeof SHOT_THEMES)[number];
}

/** Every shot, as `view-<view>-<width>-<theme>.png`. */
export const SHOTS: readonly Shot[] = SHOT_VIEWS.flatMap((view) =>
  SHOT_WIDTHS.flatMap((width) =>
    SHOT_THEMES.map((theme) => ({ file: `view-${view}-${width}-${theme}.png`, view, width, theme })),
  ),
);
