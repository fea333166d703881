// MindPad's strings, in every language the client speaks: added to
// i18n.js's by kinds/index.js, so the kind's words live with the kind.
export default {
  en: {
    "onboard.about.mindpad": "Solve the sum, then write the hidden digit by hand.",
    "kind.mindpad.canvas": "Drawing area: write the hidden digit",
    "kind.mindpad.hidden": "hidden digit",
  },
  zh: {
    "onboard.about.mindpad": "算出结果，再手写出被隐藏的数字。",
    "kind.mindpad.canvas": "书写区：写出被隐藏的数字",
    "kind.mindpad.hidden": "隐藏的数字",
  },
};
