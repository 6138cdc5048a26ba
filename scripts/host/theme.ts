/** The host page's own background in each theme, as hosts paint it behind their (transparent) views. */
export const HOST_BACKGROUND = { light: '#ffffff', dark: '#262624' } as const;
