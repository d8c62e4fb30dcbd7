/** manifest.json's format name and the newest version this lexcase reads and writes (manifest.ts). */
export const MANIFEST_FORMAT = 'lexcase-index';
/** 2: doc store texts may be block-compressed (see `docstore`); version-1 dirs are still read. */
export const MANIFEST_VERSION = 2;
