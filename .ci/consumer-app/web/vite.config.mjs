import react from '@vitejs/plugin-react';
export default { root: 'web', plugins: [react()], build: { outDir: '../dist', emptyOutDir: true } };
